/**
 * Every text the UI translates has a translation in German, French and Italian, and no catalog
 * keeps a text nothing uses any more (issue 17 §3, decision 032). Texts are found in the sources
 * as the first argument of `t('…')`, `translate('…')` or `msg('…')` (string literals only, so a computed key cannot
 * hide); a key used with `{ count }` needs its plural forms (`_one`, `_other`) in every language.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');
const LOCALES = import.meta.dirname;
const TRANSLATED = ['de', 'fr', 'it'] as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'locales' ? [] : sourceFiles(path);
    // lib/i18n.ts defines t and msg (its comments show them in use).
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') && name !== 'i18n.ts' ? [path] : [];
  });
}

const unescape = (text: string) => text.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

interface Use {
  key: string;
  plural: boolean;
  file: string;
}

/** `t('text')`, `t("text", { count })`, `msg('text')`, `` t(`text`) `` without `${}`. */
function usesIn(file: string): Use[] {
  const source = readFileSync(file, 'utf8');
  const uses: Use[] = [];
  const call = /\b(?:t|msg|translate)\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\$])*)`)\s*([,)])/g;
  for (const match of source.matchAll(call)) {
    const key = unescape(match[1] ?? match[2] ?? match[3] ?? '');
    // The options object, up to its closing brace: `{ count }` or `count:` asks for plural forms.
    const rest = match[4] === ',' ? source.slice(match.index + match[0].length, match.index + match[0].length + 200) : '';
    const options = rest.slice(0, rest.indexOf('}') + 1);
    uses.push({ key, plural: /\bcount\b/.test(options), file: relative(SRC, file) });
  }
  return uses;
}

function catalog(language: string): Map<string, { value: string; file: string }> {
  const dir = join(LOCALES, language);
  const entries = new Map<string, { value: string; file: string }>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== 'string') throw new Error(`${language}/${name}: "${key}" is not a string`);
      entries.set(key, { value, file: name });
    }
  }
  return entries;
}

const uses = sourceFiles(SRC).flatMap(usesIn);
const keys = new Map<string, Use>();
for (const use of uses) if (!keys.has(use.key) || use.plural) keys.set(use.key, use);

const PLURAL_SUFFIXES = /_(zero|one|two|few|many|other)$/;
const interpolations = (text: string) => [...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe('UI text catalogs', () => {
  it('finds the texts in the sources (so the checks below check something)', () => {
    expect(keys.size).toBeGreaterThan(20);
    expect(keys.has('Dashboard')).toBe(true);
  });

  it.each(TRANSLATED)('%s has a translation of every text the UI shows', (language) => {
    const entries = catalog(language);
    const missing = [...keys.values()]
      .filter((use) => (use.plural ? !entries.has(`${use.key}_other`) || !entries.has(`${use.key}_one`) : !entries.has(use.key)))
      .map((use) => `${use.file}: ${JSON.stringify(use.key)}${use.plural ? ' (_one/_other)' : ''}`);
    expect(missing).toEqual([]);
  });

  it.each([...TRANSLATED, 'en'])('%s keeps no text the UI no longer uses, and no empty translation', (language) => {
    const entries = catalog(language);
    const stale = [...entries.entries()]
      .filter(([key, { value }]) => !keys.has(key.replace(PLURAL_SUFFIXES, '')) || value.trim() === '')
      .map(([key, { file }]) => `${language}/${file}: ${JSON.stringify(key)}`);
    expect(stale).toEqual([]);
  });

  it.each([...TRANSLATED, 'en'])('%s keeps the placeholders of every text ({{name}} in, {{name}} out)', (language) => {
    const wrong = [...catalog(language).entries()]
      .filter(([key, { value }]) => {
        const base = key.replace(PLURAL_SUFFIXES, '');
        const expected = interpolations(base).filter((name) => name !== 'count' || !PLURAL_SUFFIXES.test(key));
        const shown = interpolations(value).filter((name) => name !== 'count' || !PLURAL_SUFFIXES.test(key));
        return expected.join() !== shown.join();
      })
      .map(([key, { value }]) => `${JSON.stringify(key)} → ${JSON.stringify(value)}`);
    expect(wrong).toEqual([]);
  });

  it('English has the plural forms of every counted text', () => {
    const entries = catalog('en');
    const missing = [...keys.values()].filter((u) => u.plural && !(entries.has(`${u.key}_one`) && entries.has(`${u.key}_other`)));
    expect(missing.map((u) => `${u.file}: ${u.key}`)).toEqual([]);
  });
});
