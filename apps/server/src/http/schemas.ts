/**
 * Answer shapes and paging fields every module's routes share (issue 11 §3: HTTP pieces live in
 * src/http, not in a business module). The error body is `{ error, fields?, code? }` as the one
 * error handler in app.ts sends it; `code` is the module's typed error code (http/errors.ts).
 */
import { z } from 'zod';

export const errorSchema = z.object({
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  // A string, not an enum: any 409 of any route may carry `retry` (http/errors.ts), and a code the
  // schema did not list would fail the response's serialization (a 500).
  code: z
    .string()
    .optional()
    .describe(
      "the module's error code (each module's <module>.errors.ts, e.g. company_has_documents), else the kind (validation, not_found, …); " +
        '409: already_done = the state change happened already (a repeat); retry = a concurrent change collided, nothing was saved; document_posting (journal entries)',
    ),
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
