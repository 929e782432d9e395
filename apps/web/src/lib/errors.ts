/**
 * Turns failures into text a person understands. Server errors are `{ error, fields }`
 * (docs/api.md); the session API's workplace lookup answers `{ err }` (spec §8).
 */
import { ApiError } from './api';
import { translate as t } from './i18n';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The server's own message, or a plain sentence for network and unexpected failures. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body;
    if (isRecord(body)) {
      if (typeof body.error === 'string' && body.error) return body.error;
      if (typeof body.err === 'string' && body.err) return body.err;
    }
    if (typeof body === 'string' && body && body.length < 300) return body;
    if (error.status === 401) return t('Your session has ended. Please sign in again.');
    if (error.status === 403) return t('You are not allowed to do this.');
    if (error.status >= 500) return t('The server ran into a problem. Please try again in a moment.');
    return t('The request failed ({{status}}).', { status: error.status });
  }
  if (error instanceof TypeError) return t('The server could not be reached. Check your connection and try again.');
  if (error instanceof Error && error.message) return error.message;
  return t('Something went wrong.');
}

/** The `fields` object of a server error: dotted path → message (spec §5 "server error data objects"). */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !isRecord(error.body) || !isRecord(error.body.fields)) return {};
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(error.body.fields)) {
    if (typeof message === 'string') fields[path] = message;
    else if (Array.isArray(message) && typeof message[0] === 'string') fields[path] = message[0];
  }
  return fields;
}

export const isApiError = (error: unknown, status?: number): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status);
