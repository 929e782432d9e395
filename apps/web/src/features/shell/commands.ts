/**
 * What the command palette understands (spec §2.10, issue 17 §1, §2), without React: typed quick
 * jumps, the page list, and spoken phrases. The component (command-palette.tsx) asks the server
 * only for what these name (an invoice by number, companies by name).
 */
import { msg } from '../../lib/i18n';

/** A page of the palette's list: the spec's label and target, plus the words it is known by. */
export interface PaletteLink {
  label: string;
  href: string;
  keywords?: readonly string[];
}

/** Spec §2.10's page list with its targets (Open Invoice: filterStatus=sent, Open Bills: filterStatus=true), then Bilan's own pages. */
export const PAGES: readonly PaletteLink[] = [
  { label: msg('Home'), href: '/', keywords: ['dashboard', 'start'] },
  { label: msg('Company List'), href: '/company', keywords: ['companies', 'customers', 'suppliers'] },
  { label: msg('Company Create'), href: '/company/add', keywords: ['new company', 'add company'] },
  { label: msg('List of Invoices'), href: '/invoice', keywords: ['invoices'] },
  { label: msg('Invoice Create'), href: '/invoice/add', keywords: ['new invoice', 'add invoice'] },
  { label: msg('Open Invoice'), href: '/invoice?filterStatus=sent', keywords: ['open invoices', 'unpaid invoices'] },
  { label: msg('Bill'), href: '/bill', keywords: ['bills', 'payables'] },
  { label: msg('Bill Create'), href: '/bill/add', keywords: ['new bill', 'add bill'] },
  { label: msg('Open Bills'), href: '/bill?filterStatus=true', keywords: ['unpaid bills'] },
  { label: msg('Transaction Groups'), href: '/transaction-group', keywords: ['payment runs', 'transactions'] },
  { label: msg('Inbox'), href: '/inbox', keywords: ['mail', 'documents'] },
  { label: msg('Inbox Add'), href: '/inbox', keywords: ['upload'] },
  { label: msg('Settings'), href: '/settings' },
  { label: msg('Profile'), href: '/profile' },
  { label: msg('Ledger Codes'), href: '/accounting/account', keywords: ['ledger accounts', 'chart of accounts'] },
  { label: msg('Journal'), href: '/accounting/journal', keywords: ['entries'] },
  { label: msg('trial balance'), href: '/accounting/trial-balance' },
  { label: msg('Creditors'), href: '/bill/creditors', keywords: ['what we owe'] },
  { label: msg('Debtors'), href: '/invoice/debtors', keywords: ['what customers owe'] },
  { label: msg('Quotes'), href: '/quote', keywords: ['offers', 'offerten'] },
  { label: msg('Dunning'), href: '/invoice/dunning', keywords: ['reminders', 'mahnungen'] },
  { label: msg('Recurring invoices'), href: '/invoice/recurring' },
  { label: msg('VAT Return'), href: '/accounting/vat', keywords: ['mwst', 'tva'] },
  { label: msg('Add Journal Entry'), href: '/accounting/entry/add', keywords: ['new entry', 'booking'] },
  { label: msg('Accounting Checks'), href: '/accounting/checks' },
  { label: msg('Closing'), href: '/accounting/close', keywords: ['year end'] },
  { label: msg('Reports'), href: '/report' },
  { label: msg('Outbox'), href: '/outbox', keywords: ['e-mails sent'] },
  { label: msg('Support'), href: '/support', keywords: ['help'] },
  { label: msg('Logout'), href: '/logout', keywords: ['sign out'] },
];

/** A typed command: a quick jump by number, a company search, or words to find among the pages. */
export type Command =
  | { kind: 'invoice'; number: number }
  | { kind: 'transactionGroup'; id: number }
  | { kind: 'entry'; id: number }
  | { kind: 'company'; text: string }
  | { kind: 'pages'; text: string };

/**
 * Reads the palette's input (spec §2.10): `INV{n}`, `TG{n}`, `EN{n}` (case and a space before the
 * number ignored), `CO {text}` with 3 or more letters or digits; anything else finds pages.
 */
export function parseCommand(input: string): Command {
  const text = input.trim();
  const jump = /^(INV|TG|EN)\s*(\d{1,9})$/i.exec(text);
  if (jump) {
    const n = Number(jump[2]);
    const prefix = jump[1]!.toUpperCase();
    return prefix === 'INV' ? { kind: 'invoice', number: n } : prefix === 'TG' ? { kind: 'transactionGroup', id: n } : { kind: 'entry', id: n };
  }
  const company = /^CO\s+(.+)$/i.exec(text);
  if (company && (company[1]!.match(/[\p{L}\p{N}]/gu) ?? []).length >= 3) return { kind: 'company', text: company[1]!.trim() };
  return { kind: 'pages', text };
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The pages whose label or keywords contain every typed word (all pages for an empty input). */
export function matchPages(text: string, pages: readonly PaletteLink[] = PAGES): PaletteLink[] {
  const typed = words(text);
  return pages.filter((page) => {
    const known = [page.label, ...(page.keywords ?? [])].join(' ').toLowerCase();
    return typed.every((word) => known.includes(word));
  });
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
};

/** What a spoken phrase asks for (spec §2.10 voice input, en-US). */
export type VoiceIntent = { kind: 'close' } | { kind: 'go'; command: Command } | { kind: 'page'; page: PaletteLink } | { kind: 'unknown' };

/**
 * 'invoice N', 'entry N', 'transaction N' (digits or the number words up to twenty, as browsers
 * transcribe them) jump like INV/EN/TG; 'close' closes the palette; otherwise the page whose label
 * and keywords share the most words with the phrase, if any word is shared.
 */
export function voiceIntent(phrase: string, pages: readonly PaletteLink[] = PAGES): VoiceIntent {
  const spoken = words(phrase);
  if (spoken.includes('close')) return { kind: 'close' };
  const numberAfter = (index: number) => {
    const next = spoken[index + 1];
    if (next === undefined) return undefined;
    if (/^\d{1,9}$/.test(next)) return Number(next);
    return NUMBER_WORDS[next];
  };
  for (const [index, word] of spoken.entries()) {
    const n = numberAfter(index);
    if (n === undefined) continue;
    if (word === 'invoice') return { kind: 'go', command: { kind: 'invoice', number: n } };
    if (word === 'entry') return { kind: 'go', command: { kind: 'entry', id: n } };
    if (word === 'transaction') return { kind: 'go', command: { kind: 'transactionGroup', id: n } };
  }
  let best: { page: PaletteLink; score: number } | null = null;
  for (const page of pages) {
    const known = new Set(words([page.label, ...(page.keywords ?? [])].join(' ')));
    const score = spoken.filter((word) => known.has(word)).length;
    if (score > 0 && (!best || score > best.score)) best = { page, score };
  }
  return best ? { kind: 'page', page: best.page } : { kind: 'unknown' };
}
