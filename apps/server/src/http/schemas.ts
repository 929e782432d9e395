/**
 * Answer shapes and paging fields every module's routes share (issue 11 §3: HTTP pieces live in
 * src/http, not in a business module). The error body is `{ error, fields?, code? }` as the one
 * error handler in app.ts sends it; `code` is the module's typed error code (http/errors.ts).
 */
import { z } from 'zod';

export const errorSchema = z.object({
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  code: z.string().optional().describe("the module's error code, e.g. 'company_not_found'; clients branch on it, not on the message"),
});
export const okSchema = z.object({ ok: z.literal(true) });

/** Error answers every authenticated route can give besides its own. */
export const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema } as const;
export const errorsWithNotFound = { ...errors, 404: errorSchema } as const;
export const errorsWithConflict = { ...errorsWithNotFound, 409: errorSchema } as const;

/** Paging of list queries: 1-based page, at most 500 rows a page. */
export const pageFields = {
  page: z.number().int('must be an integer').min(1).default(1),
  pageSize: z.number().int('must be an integer').min(1).max(500).default(50),
};
