/**
 * The server's own 400 messages in the client's language (issue 17 §3, decision 032,
 * src/http/message-catalog.ts): every catalog entry has German, French and Italian; a new 400
 * message written in the sources without a translation fails the completeness scan; and three real
 * 400s of different modules answer in German with `accept-language: de-CH` and in the unchanged
 * English without the header.
 *
 * The scan (`scanValidationMessages`) reads apps/server/src/**\/*.ts as text and takes the string
 * literal messages of
 *   - `badRequest('…')`
 *   - `new AppError('validation', '…')`
 *   - `fieldError(field, '…')`, `invalidField(field, '…')`, `badField(field, '…')` (400 helpers)
 *   - a module error constructor (`payableError('code', '…')`, `new AccountingError('code', '…')`)
 *     and its field form (`invoicingFieldError('code', field, '…')`) whose code is of kind
 *     'validation' in the module's `*.errors.ts` (moduleErrors records, and accounting's switch).
 * What it cannot see (translated by hand, or by a pattern, or not at all):
 *   - template literals with values (`\`line ${n} is given twice\``): the catalog's patterns cover
 *     those written today, and each pattern's example is tested below;
 *   - messages passed through a variable or constant (`INVALID_UUID`, `const message = …`), built
 *     by a ternary, or given by a helper of another name (`importError`, `wrongDirection`, `invalid`);
 *   - messages that only appear as `fields` values (`fields.dueDate = '…'`, `{ jwt: '…' }`);
 *   - zod messages of the route schemas (`.max(100, 'at most 100 characters')`);
 *   - messages made outside apps/server/src: database triggers (BIL01), parsers' errors
 *     (CSV, ISO 20022, payroll files) and the Pain001Error texts of lib/ passed on as variables.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, SERVER_PATTERNS, translateServerMessage } from '../../src/http/message-catalog.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, type LedgerWorkplace } from '../accounting/ledger.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { payableCounts, payablesWorkplace, QR_REF, type PayablesWorkplace } from '../payables/setup.js';

const LANGUAGES = ['de', 'fr', 'it'] as const;
const digits = (text: string) => (text.match(/\d+/g) ?? []).sort();

describe('the server catalog', () => {
  it.each([...SERVER_MESSAGES.entries()])('%s: German, French and Italian keeping the digits', (english, translations) => {
    for (const language of LANGUAGES) {
      const text = translations[language];
      expect(text.trim(), language).not.toBe('');
      expect(text, language).not.toBe(english);
      expect(digits(text), `${language}: ${text}`).toEqual(digits(english));
      expect(translateServerMessage(english, language)).toBe(text);
    }
    expect(translations.de).not.toMatch(/ß/);
    expect(translateServerMessage(english, 'en')).toBe(english);
  });

  it.each(SERVER_PATTERNS.map((pattern) => [pattern.example, pattern] as const))('%s: translated keeping its values', (example, pattern) => {
    const groups = pattern.match.exec(example)?.slice(1);
    expect(groups, 'the example matches its pattern').toBeDefined();
    for (const language of LANGUAGES) {
      const text = translateServerMessage(example, language);
      expect(text, language).toBe(pattern.to(groups!, language));
      expect(text, language).not.toBe(example);
      for (const run of digits(example)) expect(digits(text), `${language}: ${text}`).toContain(run);
      groups!.forEach((value, index) => {
        // A word of the message is translated; a value that is itself a message is translated inside.
        if (pattern.words?.includes(index) || translateServerMessage(value, language) !== value) return;
        expect(text, `${language}: group ${index}`).toContain(value);
      });
    }
    expect(translateServerMessage(example, 'de')).not.toMatch(/ß/);
    expect(translateServerMessage(example, 'en')).toBe(example);
  });

  it('keeps a field path in front, tries the shared catalog first and leaves unknown text English', () => {
    expect(translateServerMessage('data.1.vatAmount: VAT cannot exceed the amount', 'de')).toBe('data.1.vatAmount: die MWST darf den Betrag nicht übersteigen');
    expect(translateServerMessage('lines.0.amount: amount must be greater than 0', 'fr')).toBe('lines.0.amount: le montant doit être supérieur à 0');
    expect(translateServerMessage('items: a quote without lines cannot be sent', 'it')).toBe("items: un'offerta senza righe non può essere inviata");
    expect(translateServerMessage('something nobody wrote down', 'de')).toBe('something nobody wrote down');
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

/** Error codes of kind 'validation' per module constructor, read from the `*.errors.ts` files. */
function validationCodes(files: readonly string[]): Map<string, Set<string>> {
  const codes = new Map<string, Set<string>>();
  for (const file of files.filter((f) => f.endsWith('.errors.ts'))) {
    const source = readFileSync(file, 'utf8');
    for (const [, name, body] of source.matchAll(/export const (\w+) = moduleErrors\(\{([\s\S]*?)\}\);/g)) {
      codes.set(name!, new Set([...body!.matchAll(/(\w+): 'validation'/g)].map((m) => m[1]!)));
    }
    // accounting.errors.ts: the `case '…':` labels that fall through to `return 'validation'`.
    const switchCases = /((?:\s*case '\w+':)+)\s*return 'validation';/.exec(source);
    if (switchCases) codes.set('new AccountingError', new Set([...switchCases[1]!.matchAll(/case '(\w+)'/g)].map((m) => m[1]!)));
  }
  return codes;
}

/** A plain string literal: '…', "…" or a template without `${`. */
const LITERAL = String.raw`('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\$]|\\.)*\x60)`;
/** One argument before the message (a field name, a template, a call with parentheses). */
const ARG = String.raw`(?:[^,()]|\([^()]*\))+`;
const unquote = (literal: string) => literal.slice(1, -1).replace(/\\(.)/g, '$1');

interface Found {
  file: string;
  message: string;
}

function scanValidationMessages(): Found[] {
  const files = sourceFiles(SRC);
  const codes = validationCodes(files);
  const found: Found[] = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const add = (literal: string) => found.push({ file: file.slice(SRC.length), message: unquote(literal) });
    for (const m of source.matchAll(new RegExp(String.raw`\bbadRequest\(\s*${LITERAL}`, 'g'))) add(m[1]!);
    for (const m of source.matchAll(new RegExp(String.raw`new AppError\(\s*'validation',\s*${LITERAL}`, 'g'))) add(m[1]!);
    for (const m of source.matchAll(new RegExp(String.raw`\b(?:fieldError|invalidField|badField)\(\s*${ARG},\s*${LITERAL}`, 'g'))) add(m[1]!);
    for (const [constructor, valid] of codes) {
      for (const m of source.matchAll(new RegExp(String.raw`(?:^|[^\w.])${constructor}\(\s*'(\w+)',\s*${LITERAL}`, 'g'))) if (valid.has(m[1]!)) add(m[2]!);
      const fieldForm = constructor.replace(/Error$/, 'FieldError');
      if (fieldForm === constructor) continue;
      for (const m of source.matchAll(new RegExp(String.raw`\b${fieldForm}\(\s*'(\w+)',\s*${ARG},\s*${LITERAL}`, 'g'))) if (valid.has(m[1]!)) add(m[2]!);
    }
  }
  return found;
}

describe('every 400 message written in the sources has a translation', () => {
  const found = scanValidationMessages();

  it('finds the messages (the scan itself works)', () => {
    expect(found.length).toBeGreaterThan(50);
    expect(found.map((f) => f.message)).toEqual(expect.arrayContaining(['give either a date or an end entry, not both', 'choose the expense account of this bill', 'Code expected']));
  });

  it('translates each of them into German, French and Italian', () => {
    const missing = LANGUAGES.flatMap((language) =>
      found.filter(({ message }) => translateServerMessage(message, language) === message).map(({ file, message }) => `${language} ${file}: ${message}`),
    );
    expect(missing, 'add these to src/http/message-catalog.ts').toEqual([]);
  });
});

// ---- real 400s -----------------------------------------------------------------------------------

describe('400s of the modules by Accept-Language', () => {
  let server: TestServer;
  let ledger: LedgerWorkplace;
  let invoicing: InvoicingWorkplace;
  let payables: PayablesWorkplace;

  beforeAll(async () => {
    server = await startTestServer();
    [ledger, invoicing, payables] = await Promise.all([ledgerWorkplace(server), invoicingWorkplace(server), payablesWorkplace(server)]);
  });
  afterAll(async () => server?.close());

  const asked = (language?: string): Record<string, string> => (language ? { 'accept-language': language } : {});

  it('accounting: an income statement whose range ends before it starts', async () => {
    const call = (language?: string) =>
      ledger.api.request('POST', '/api/accounting/statement/income', { dateFrom: '2025-12-31', dateTo: '2025-01-01' }, asked(language));
    const english = await call();
    expect(english.status).toBe(400);
    expect(english.body).toMatchObject({ code: 'invalid_input', error: 'must be on or before dateTo 2025-01-01', fields: { dateFrom: 'must be on or before dateTo 2025-01-01' } });
    const german = await call('de-CH');
    expect(german.status).toBe(400);
    expect(german.body).toMatchObject({ code: 'invalid_input', error: 'muss am oder vor dateTo 2025-01-01 liegen', fields: { dateFrom: 'muss am oder vor dateTo 2025-01-01 liegen' } });
  });

  it('invoicing: an invoice due before its date', async () => {
    const call = (language?: string) =>
      invoicing.api.request('POST', '/api/invoice/insert', { data: { ...invoiceData(invoicing), dateInvoice: '2025-03-01', dateDue: '2025-02-28' } }, asked(language));
    const english = await call();
    expect(english.status).toBe(400);
    expect(english.body.fields).toEqual({ 'data.dateDue': 'the due date cannot be before the invoice date' });
    expect(english.body.error).toMatch(/the due date cannot be before the invoice date$/);
    const german = await call('de-CH');
    expect(german.status).toBe(400);
    expect(german.body.fields).toEqual({ 'data.dateDue': 'das Fälligkeitsdatum darf nicht vor dem Rechnungsdatum liegen' });
    expect(german.body.error).toMatch(/das Fälligkeitsdatum darf nicht vor dem Rechnungsdatum liegen$/);
    expect(german.body.code).toBe(english.body.code);
  });

  it('payables: a bill whose VAT exceeds its amount, nothing written', async () => {
    const before = await payableCounts(server, payables.instanceId);
    const bill = {
      data: {
        company: { uuid: payables.supplier.uuid },
        companyFinance: { id: payables.supplier.qrProfile },
        date: '2025-03-10',
        dueDate: '2025-04-09',
        amount: '1081.00',
        vatAmount: '2000.00',
        referenceNumber: QR_REF,
        description: 'Büromaterial März',
      },
    };
    const call = (language?: string) => payables.api.request('POST', '/api/payable/insert', bill, asked(language));
    const english = await call();
    expect(english.status).toBe(400);
    expect(english.body.fields).toEqual({ 'data.vatAmount': 'VAT cannot exceed the amount' });
    expect(english.body.error).toMatch(/VAT cannot exceed the amount$/);
    const german = await call('de-CH');
    expect(german.status).toBe(400);
    expect(german.body.fields).toEqual({ 'data.vatAmount': 'die MWST darf den Betrag nicht übersteigen' });
    expect(german.body.error).toMatch(/die MWST darf den Betrag nicht übersteigen$/);
    const french = await call('fr-CH');
    expect(french.body.fields).toEqual({ 'data.vatAmount': "la TVA ne peut pas dépasser le montant" });
    expect(await payableCounts(server, payables.instanceId)).toEqual(before);
  });
});
