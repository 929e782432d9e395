import { formatAmount, formatDate } from '@bilan/domain';
import type { ApiResult } from '../../lib/api';

/** A search hit of GET /api/search as the palette shows it. */
export type SearchHit = ApiResult<'get', '/api/search'>['data'][number];

/**
 * 'Invoice BILAN000012 · 05.03.2025 · CHF 1'234.50 · Consulting'. Loaded with the first search,
 * not with the first page: formatAmount brings decimal.js (issue 18 §1).
 */
export function hitLabel(hit: SearchHit, kindLabel: string): string {
  const amount = hit.amount ? ` · ${hit.currency ?? ''} ${formatAmount(hit.amount)}`.replace('  ', ' ') : '';
  return `${kindLabel} ${hit.number} · ${formatDate(hit.date)}${amount}${hit.text ? ` · ${hit.text}` : ''}`;
}
