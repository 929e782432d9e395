import { describe, expect, it } from 'vitest';
import { decodeLoginInstance, encodeLoginInstance } from './instance-param';

describe('login instance parameter', () => {
  it('round-trips uuid, name and the optional user uuid', () => {
    const withUser = { uuid: 'u-1', name: 'Acme AG', userUuid: 'p-1' };
    expect(decodeLoginInstance(encodeLoginInstance(withUser))).toEqual(withUser);
    expect(decodeLoginInstance(encodeLoginInstance({ uuid: 'u-1', name: 'Acme AG' }))).toEqual({ uuid: 'u-1', name: 'Acme AG' });
  });

  it('rejects anything without a uuid and a name (→ "Issue with URL")', () => {
    expect(decodeLoginInstance('%%%')).toBeUndefined();
    expect(decodeLoginInstance(Buffer.from('{"name":"x"}').toString('base64url'))).toBeUndefined();
    expect(decodeLoginInstance(Buffer.from('[1]').toString('base64url'))).toBeUndefined();
  });
});
