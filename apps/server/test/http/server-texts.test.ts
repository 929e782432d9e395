/**
 * The texts the server composes for the UI (src/http/server-texts.ts, issue 17 §3): every template
 * of the catalog has German, French and Italian with the same `{{placeholders}}`; every template
 * written in the sources (`say('…')`, `say.plural(n, '…', '…')`, `msg('…')`,
 * `serverText(language, '…')`) is in the catalog; filling and plural choice work.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholdersOf, sayIn, serverText, SERVER_TEXTS } from '../../src/http/server-texts.js';

const LANGUAGES = ['de', 'fr', 'it'] as const;
const digits = (text: string) => (text.match(/\d+/g) ?? []).sort();

describe('the server texts catalog', () => {
  it.each([...SERVER_TEXTS.entries()])('%s: German, French and Italian with its placeholders', (english, translations) => {
    for (const language of LANGUAGES) {
      const text = translations[language];
      expect(text.trim(), language).not.toBe('');
      expect(placeholdersOf(text), `${language}: ${text}`).toEqual(placeholdersOf(english));
      expect(digits(text), `${language}: ${text}`).toEqual(digits(english));
      expect(serverText(language, english)).toBe(text);
    }
    expect(translations.de).not.toMatch(/ß/);
    expect(serverText('en', english)).toBe(english);
  });

  it('fills placeholders once, keeps the values as they are and picks plurals by the language', () => {
    const de = sayIn('de');
    expect(de('At {{date}} the debit total {{debit}} equals the credit total.', { date: '31.12.2025', debit: 'CHF 1500.00' })).toBe(
      'Am 31.12.2025 entspricht das Soll-Total CHF 1500.00 dem Haben-Total.',
    );
    expect(sayIn('en')('account {{id}}', { id: '{{id}}' })).toBe('account {{id}}');
    expect(sayIn('en').plural(0, '{{count}} entry', '{{count}} entries')).toBe('0 entries');
    expect(sayIn('en').plural(1, '{{count}} entry', '{{count}} entries')).toBe('1 entry');
    expect(sayIn('fr').plural(0, '{{count}} entry', '{{count}} entries')).toBe('0 écriture');
    expect(sayIn('fr').plural(2, '{{count}} entry', '{{count}} entries')).toBe('2 écritures');
    expect(sayIn('de').plural(0, '{{count}} entry', '{{count}} entries')).toBe('0 Buchungen');
    expect(serverText('it', 'a text nobody wrote down {{x}}', { x: 1 })).toBe('a text nobody wrote down 1');
  });
});

// ---- completeness scan -------------------------------------------------------------------------

const SRC = new URL('../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** A plain string literal: '…', "…" or a template without `${`. */
const LITERAL = String.raw`('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\$]|\\.)*\x60)`;
/** One argument before the template (a count, a language). */
const ARG = String.raw`(?:[^,()]|\([^()]*\))+`;
const unquote = (literal: string) => literal.slice(1, -1).replace(/\\(.)/g, '$1');

function scanTemplates(): { file: string; template: string }[] {
  const found: { file: string; template: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    if (file.endsWith('server-texts.ts')) continue;
    const source = readFileSync(file, 'utf8');
    const add = (literal: string) => found.push({ file: file.slice(SRC.length), template: unquote(literal) });
    for (const m of source.matchAll(new RegExp(String.raw`\b(?:say|msg)\(\s*${LITERAL}`, 'g'))) add(m[1]!);
    for (const m of source.matchAll(new RegExp(String.raw`\bsay\.plural\(\s*${ARG},\s*${LITERAL},\s*${LITERAL}`, 'g'))) {
      add(m[1]!);
      add(m[2]!);
    }
    for (const m of source.matchAll(new RegExp(String.raw`\bserverText\(\s*${ARG},\s*${LITERAL}`, 'g'))) add(m[1]!);
  }
  return found;
}

describe('every template written in the sources has a translation', () => {
  const found = scanTemplates();

  it('finds the templates (the scan itself works)', () => {
    expect(found.length).toBeGreaterThan(60);
    expect(found.map((f) => f.template)).toEqual(
      expect.arrayContaining(['The trial balance sums to zero (debit total = credit total).', '{{count}} entries', 'no bill or expense', 'Invoice {{ref}} {{company}} of {{date}}']),
    );
  });

  it('translates each of them into German, French and Italian', () => {
    const missing = found.filter(({ template }) => !SERVER_TEXTS.has(template)).map(({ file, template }) => `${file}: ${template}`);
    expect(missing, 'add these to src/http/server-texts.ts').toEqual([]);
  });

  it('has no template the sources no longer write', () => {
    const used = new Set(found.map(({ template }) => template));
    expect([...SERVER_TEXTS.keys()].filter((template) => !used.has(template)), 'remove these from src/http/server-texts.ts').toEqual([]);
  });
});
