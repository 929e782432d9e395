/**
 * Walking a paged list over HTTP (db/paging.ts, decision 036), for the paging tests: by the body's
 * `nextCursor` (POST lists) or by the `Link: rel="next"` header (GET lists).
 */
import { expect } from 'vitest';
import type { ApiResponse, Client } from '../helpers.js';

/**
 * Every page of a POST list by cursor: the rows in order and the number of requests. Checks that
 * no page is longer than `pageSize` and that every page answers the first page's total (carried
 * by the cursor), which is the number of rows walked.
 */
export async function walk(api: Client, path: string, body: Record<string, unknown>, pageSize: number) {
  const rows: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  const totals = new Set<number>();
  do {
    const answer = await api.post(path, { ...body, pageSize, ...(cursor ? { cursor } : {}) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.length).toBeLessThanOrEqual(pageSize);
    rows.push(...answer.body.data);
    totals.add(answer.body.total);
    cursor = answer.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor);
  expect(totals).toEqual(new Set([rows.length]));
  return { rows, pages };
}

/** Every row of a GET list, following its `Link: <…>; rel="next"` headers, which go with the body's `nextCursor`. */
export async function follow(api: Client, first: string) {
  const rows: any[] = [];
  let next: string | undefined = first;
  while (next) {
    const answer: ApiResponse = await api.get(next);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    rows.push(...answer.body.data);
    const link: string | null = answer.headers.get('link');
    next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    expect(link === null).toBe(answer.body.nextCursor === null);
  }
  return rows;
}
