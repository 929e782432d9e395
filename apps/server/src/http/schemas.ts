/**
 * Answer shapes and paging fields every module's routes share (issue 11 §3: HTTP pieces live in
 * src/http, not in a business module). The error body is `{ error, fields?, code? }` as the one
 * error handler in app.ts sends it; `code` is the module's typed error code (http/errors.ts).
 */
import { z } from 'zod';
import { COUNT_CAP, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../db/paging.js';

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

/**
 * Paging of list queries (db/paging.ts, decision 036): 1-based `page`, or the `cursor` of the
 * previous answer (`nextCursor`), at most 500 rows a page, 50 by default.
 */
export const pageFields = {
  page: z.number().int('must be an integer').min(1).default(1),
  pageSize: z.number().int('must be an integer').min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z
    .string()
    .max(2000)
    .optional()
    .describe("the previous answer's `nextCursor`: the next page by key, whatever was added or removed meanwhile (page is then ignored)"),
};

/** The same paging as query parameters of a GET list. */
export const pageQueryFields = {
  page: z.coerce.number().int('must be an integer').min(1).default(1),
  pageSize: z.coerce.number().int('must be an integer').min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: pageFields.cursor,
};

/** What a paged answer carries beside `data`. */
export const pageAnswerFields = {
  total: z.number().int().describe(`rows matching; counted no further than ${COUNT_CAP} (then \`totalCapped\`)`),
  totalCapped: z.boolean().optional().describe(`true: more than ${COUNT_CAP} rows match, \`total\` is ${COUNT_CAP}`),
  nextCursor: z.string().nullable().optional().describe('pass as `cursor` for the next page; null on the last page'),
};
