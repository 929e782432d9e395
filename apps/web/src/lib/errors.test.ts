import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { errorMessage, serverFieldErrors } from './errors';

describe('errorMessage', () => {
  it('prefers the server text: error, then err', () => {
    expect(errorMessage(new ApiError(409, { error: 'The books are locked' }, 'POST', '/x'))).toBe('The books are locked');
    expect(errorMessage(new ApiError(404, { err: 'Instance not found' }, 'POST', '/x'))).toBe('Instance not found');
  });

  it('explains network failures and bare statuses in plain words', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toMatch(/could not be reached/);
    expect(errorMessage(new ApiError(500, null, 'GET', '/x'))).toMatch(/server ran into a problem/);
  });
});

describe('serverFieldErrors', () => {
  it('returns the fields object of an error body', () => {
    const error = new ApiError(400, { error: 'x', fields: { 'address.street': 'This field must be given', n: 3 } }, 'POST', '/x');
    expect(serverFieldErrors(error)).toEqual({ 'address.street': 'This field must be given' });
    expect(serverFieldErrors(new Error('x'))).toEqual({});
  });
});
