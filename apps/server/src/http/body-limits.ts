/**
 * Request-body limits (issue 11 §5). Every route takes at most BODY_LIMIT: no form or API call of
 * the spec comes near it, and a small limit bounds what an unauthenticated request makes the
 * server buffer and parse. The routes that take whole files or bulk imports (CSV, bank XML,
 * invoice rows) set `bodyLimit: BULK_BODY_LIMIT` themselves; inbox files have their own 20 MB in
 * their parser. Too large answers 413 before the body is read to its end.
 */
export const BODY_LIMIT = 1024 * 1024;
/** Large journal imports and bank statements of a year arrive as one body. */
export const BULK_BODY_LIMIT = 64 * 1024 * 1024;
