/**
 * Screenshots of the web app in Debian's Chromium, against the real server (which serves
 * apps/web/dist with its real CSP). Endpoints the server does not implement yet are answered in
 * the browser by Playwright routes with data shaped as docs/api.md says.
 *
 *   PORT=3000 BILAN_DATA_DIR=/tmp/bilan-dev npm run serve     # after npm run build
 *   npx tsx apps/web/scripts/screenshots.ts [filter]           # PNGs go to /tmp/bilan-shots
 *
 * Console errors, page errors and CSP violations are printed; the run fails if there are any.
 */
import { chromium, type Page, type Route } from '@playwright/test';

const base = process.env.BILAN_URL ?? 'http://localhost:3000';
const out = process.env.SHOTS_DIR ?? '/tmp/bilan-shots';
const only = process.argv[2];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const profile = {
  uuid: '4f6f7d0e-5f0a-4c55-9f53-0e8a7a0b1c01',
  email: 'anna@acme.ch',
  firstName: 'Anna',
  lastName: 'Muster',
  role: 'owner',
  isSuperadmin: false,
  permissions: ['read', 'write', 'admin'],
  instance: { uuid: '0b9d3f5e-3a51-4c1e-8b55-6d1f5c1d2a77', name: 'Acme Treuhand AG', currency: 'CHF', initialized: true },
};

const accounts = [
  { id: 1, number: '1000', name: 'Bank UBS', currency: 'CHF', type: { id: 1 }, functionType: { id: 1 }, balance: '48210.55', hasPostings: true },
  { id: 2, number: '1020', name: 'PostFinance Geschäftskonto mit sehr langem Namen', currency: 'CHF', type: { id: 1 }, functionType: { id: 1 }, balance: '1250.00', hasPostings: true },
  { id: 3, number: '1100', name: 'Forderungen aus Lieferungen und Leistungen', currency: 'CHF', type: { id: 1 }, functionType: { id: 5 }, balance: '12900.00', hasPostings: true },
  { id: 4, number: '2000', name: 'Verbindlichkeiten aus Lieferungen', currency: 'CHF', type: { id: 2 }, functionType: { id: 4 }, balance: '-8350.40', hasPostings: true },
  { id: 5, number: '2200', name: 'Geschuldete MWST', currency: 'CHF', type: { id: 2 }, functionType: { id: 2 }, balance: '-2431.10', hasPostings: true },
  { id: 6, number: '3200', name: 'Dienstleistungserlöse', currency: 'CHF', type: { id: 4 }, functionType: { id: 3 }, balance: '-64500.00', hasPostings: true },
  { id: 7, number: '6000', name: 'Raumaufwand', currency: 'CHF', type: { id: 3 }, functionType: null, balance: '12920.95', hasPostings: true },
  { id: 8, number: '6500', name: 'Verwaltungsaufwand', currency: 'CHF', type: { id: 3 }, functionType: null, balance: '0.00', hasPostings: false },
];
const account = (id: number) => {
  const a = accounts.find((x) => x.id === id)!;
  return { id: a.id, number: a.number, name: a.name };
};

const entries = Array.from({ length: 12 }, (_, i) => {
  const id = 120 - i;
  const amount = (1000 + i * 137.35).toFixed(2);
  return {
    id,
    dateLedger: `2026-${String(11 - Math.floor(i / 2)).padStart(2, '0')}-${String(28 - i).padStart(2, '0')}`,
    description: ['Miete November', 'Rechnung 2026-041 Müller GmbH', 'Zahlung Swisscom', 'Büromaterial'][i % 4]!,
    source: i % 3 === 0 ? 'import' : null,
    debitTotal: amount,
    entryAccounts: [
      { id: id * 10 + 1, account: account(7), amount, direction: 1, originalAmount: null, exchangeRate: null, currency: null, description: null },
      { id: id * 10 + 2, account: account(1), amount, direction: -1, originalAmount: null, exchangeRate: null, currency: null, description: null },
    ],
  };
});

const endDates = Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(2026, m + 1, 0)).toISOString().slice(0, 10));
const series = (start: number, step: number) => endDates.map((_, m) => (start + step * m + (m % 3) * 211.4).toFixed(2));

type Handler = (route: Route, body: unknown, url: URL) => unknown;

interface MockOptions {
  signedIn?: boolean;
  onboarding?: boolean;
  overrides?: Record<string, Handler>;
}

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

async function mockApi(page: Page, { signedIn = true, onboarding = false, overrides = {} }: MockOptions = {}) {
  let slowProfile = false;
  const handlers: Record<string, Handler> = {
    'GET /napi/auth/refresh': (route) => (signedIn ? json(route, 200, { token: 'test-token' }) : json(route, 401, { error: 'No session' })),
    'GET /napi/profile': async (route) => {
      if (slowProfile) {
        // Right after onboarding: slow enough to see 'Finished, redirecting you'.
        slowProfile = false;
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      return onboarding ? json(route, 409, { error: 'Onboarding not finished', onboarding: true }) : json(route, 200, profile);
    },
    'POST /napi/action-log/insert': (route) => json(route, 200, { ok: true }),
    'GET /napi/auth/logout': (route) => json(route, 200, { ok: true }),
    'POST /napi/instance/exists': (route, body) =>
      (body as { name: string }).name.toLowerCase().startsWith('acme')
        ? json(route, 200, { uuid: profile.instance.uuid, name: 'Acme Treuhand AG' })
        : json(route, 404, { error: 'Instance not found', err: 'Instance not found' }),
    'GET /api/analytics/counts': (route) => json(route, 200, { Mail: 14, Payable: 6, TransactionGroup: 2, Invoice: 31 }),
    'GET /api/accounting/account/dashboard': (route, _b, url) =>
      json(route, 200, {
        year: Number(url.searchParams.get('year')),
        endDates,
        accounts: [
          { ...account(1), currency: 'CHF', balances: series(30000, 1650) },
          { ...account(2), currency: 'CHF', balances: series(4000, -250) },
          { ...account(3), currency: 'CHF', balances: series(8000, 400) },
          { ...account(4), currency: 'CHF', balances: series(-3000, -480) },
          { ...account(6), currency: 'CHF', balances: series(-5000, -5400) },
        ],
      }),
    'POST /api/accounting/account/list': (route, body) => {
      const text = ((body as { filters?: { text?: string } }).filters?.text ?? '').toLowerCase();
      const data = accounts.filter((a) => !text || a.number.includes(text) || a.name.toLowerCase().includes(text));
      return json(route, 200, { data, total: data.length });
    },
    'POST /api/accounting/account/detail': (route, body) => json(route, 200, accounts.find((a) => a.id === (body as { id: number }).id)),
    'POST /api/accounting/account/insert': (route) =>
      json(route, 409, { error: 'Account number 1000 already exists', fields: { 'data.number': 'Account number 1000 already exists' } }),
    'POST /api/accounting/account/delete': (route) =>
      json(route, 409, { error: 'Account 1000 has postings and cannot be deleted' }),
    'POST /api/accounting/entry/list': (route, body) => {
      const { order } = body as { order?: string };
      const data = order === 'asc' ? [...entries].reverse() : entries;
      return json(route, 200, { data, total: 212 });
    },
    'POST /api/accounting/entry/detail': (route, body) => {
      const entry = entries.find((e) => e.id === (body as { id: number }).id) ?? entries[0]!;
      return json(route, 200, entry);
    },
    'POST /api/accounting/entry/insert': (route) => json(route, 200, { ...entries[0], id: 121 }),
    'POST /api/accounting/entry/update': (route) =>
      json(route, 409, { error: 'The books are locked up to 31.12.2025.' }),
    'POST /api/accounting/entry/delete': (route) => json(route, 409, { error: 'The books are locked up to 31.12.2025.' }),
    'POST /api/accounting/entry/account/list': (route) => {
      let balance = 30000;
      const data = entries.map((e, i) => {
        const debit = i % 2 === 0 ? e.debitTotal : null;
        const credit = i % 2 === 1 ? e.debitTotal : null;
        balance += debit ? Number(debit) : -Number(credit);
        return { id: i + 1, entry: { id: e.id, dateLedger: e.dateLedger, description: e.description }, amount: e.debitTotal, direction: debit ? 1 : -1, debit, credit, balance: balance.toFixed(2) };
      });
      return json(route, 200, { data, total: data.length, openingBalance: '30000.00', closingBalance: balance.toFixed(2) });
    },
    'POST /api/accounting/balance/get': (route, body) => {
      const rows = accounts.filter((a) => a.hasPostings).map((a) => {
        const positive = !a.balance.startsWith('-');
        const size = a.balance.replace('-', '');
        return { id: a.id, number: a.number, name: a.name, currency: a.currency, type: a.type, debit: positive ? size : '0.00', credit: positive ? '0.00' : size, balance: a.balance };
      });
      return json(route, 200, { date: (body as { date: string }).date, accounts: rows, totals: { debit: '75281.50', credit: '75281.50', balance: '0.00' } });
    },
    'POST /api/accounting/import/chart': (route) => json(route, 200, { created: 48, updated: 2 }),
    'POST /api/accounting/import/journal': (route) =>
      json(route, 400, { error: 'could not map account 2810, 4350, 9999' }),
    'POST /api/instance/init': (route) => json(route, 200, { company: { uuid: '6c1f3b8e-2d4a-4f5e-9a7b-1c2d3e4f5a6b' } }),
    'POST /api/instance/init/accounts': (route) => {
      onboarding = false;
      slowProfile = true;
      return json(route, 200, { accounts: [] });
    },
    ...overrides,
  };
  await page.route(/\/(api|napi)\//, async (route) => {
    const url = new URL(route.request().url());
    const key = `${route.request().method()} ${url.pathname}`;
    const handler = handlers[key];
    if (!handler) return route.fallback();
    let body: unknown;
    try {
      body = route.request().postDataJSON();
    } catch {
      body = route.request().postData();
    }
    await handler(route, body, url);
  });
}

const problems: string[] = [];
let shots = 0;

async function shot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(250);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
  shots += 1;
  console.log(`  ${name}.png`);
}

type Scenario = (page: Page) => Promise<void>;

const scenarios: Record<string, { options?: MockOptions; viewport?: { width: number; height: number }; run: Scenario }> = {
  login: {
    options: { signedIn: false },
    run: async (page) => {
      await page.goto(`${base}/login`);
      await page.getByRole('heading', { name: 'Welcome to Bilan' }).waitFor();
      await shot(page, '01-login-workplace');
      await page.getByLabel('Workplace name').fill('Nope');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Instance not found').waitFor();
      await shot(page, '02-login-workplace-not-found');
      await page.evaluate(() => localStorage.setItem('login_error', 'Could not log you in'));
      await page.getByLabel('Workplace name').fill('acme');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Login to Acme Treuhand AG' }).waitFor();
      await shot(page, '03-login-instance-with-error');
      await page.reload();
      await page.getByRole('heading', { name: 'Login to Acme Treuhand AG' }).waitFor();
      if (await page.getByText('Could not log you in').count()) problems.push('login_error shown twice');
      await page.goto(`${base}/login/${b64({ uuid: profile.instance.uuid, name: 'Acme Treuhand AG', userUuid: profile.uuid })}`);
      await page.getByRole('button', { name: 'Sign in with Passkey' }).click();
      await page.getByText('Passkeys arrive soon').waitFor();
      await shot(page, '04-login-instance-passkey');
      await page.goto(`${base}/login/not-base64!`);
      await page.getByText('Issue with URL').waitFor();
      await shot(page, '05-login-issue-with-url');
      await page.goto(`${base}/login/some/unknown/path`);
      await page.getByRole('heading', { name: 'Welcome to Bilan' }).waitFor();
    },
  },
  signup: {
    options: { signedIn: false },
    run: async (page) => {
      await page.goto(`${base}/login/signup`);
      await page.getByLabel('Workplace name').fill('Acme');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Instance name already taken').waitFor();
      await shot(page, '06-signup-taken');
      await page.getByLabel('Workplace name').fill('Neue Firma GmbH');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('I read and agree to the Terms and Conditions').check();
      await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
      await shot(page, '07-signup-sso');
    },
  },
  sso: {
    options: { signedIn: false },
    run: async (page) => {
      await page.goto(`${base}/sso/facebook/redirect?code=1&state=2`);
      await page.getByText('SSO provider not recognized').waitFor();
      await page.goto(`${base}/sso/google/redirect?state=abc`);
      await page.getByText('Code expected').waitFor();
      await page.goto(`${base}/sso/google/redirect?code=1&state=${b64({ other: 1 })}`);
      await page.getByText('instance wrong').waitFor();
      await shot(page, '08-sso-instance-wrong');
      // The server has no redirect endpoint yet: the failure is stored and shown on /login.
      await page.goto(`${base}/sso/google/redirect?code=1&state=${b64({ instance: profile.instance.uuid })}`);
      await page.getByText('Could not log you in').waitFor();
      await shot(page, '09-sso-failed-back-to-login');
      await page.goto(`${base}/login/2fa/payload-123`);
      await page.getByLabel('Authentication code').fill('12ab');
      await shot(page, '10-two-factor');
    },
  },
  guard: {
    options: { signedIn: false },
    run: async (page) => {
      await page.goto(`${base}/accounting/journal`);
      await page.waitForURL(`${base}/login`);
    },
  },
  onboarding: {
    options: { onboarding: true },
    run: async (page) => {
      await page.goto(`${base}/`);
      await page.waitForURL(`${base}/onboarding`);
      await page.getByText('We are not a registered Swiss company').waitFor();
      await shot(page, '11-onboarding-company-register');
      await page.getByText('We are not a registered Swiss company').click();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('This field must be given').waitFor();
      await shot(page, '12-onboarding-company-required');
      await page.getByLabel('Company name').fill('Acme Treuhand AG');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Street').waitFor();
      await page.reload();
      await page.getByLabel('Street').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await shot(page, '13-onboarding-address-required');
      await page.getByLabel('Street').fill('Bahnhofstrasse');
      await page.getByLabel('House number').fill('10');
      await page.getByLabel('ZIP').fill('8001');
      await page.getByLabel('City').fill('Zürich');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('IBAN').fill('CH93 0076 2011 6238 5295 8');
      await page.getByRole('button', { name: 'Add bank account' }).click();
      await page.getByLabel('IBAN').nth(1).fill('CH44 3199 9123 0008 8901 2');
      await page.getByRole('combobox', { name: 'Type' }).nth(1).click();
      await page.getByRole('option', { name: 'QR bill' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('The IBAN is wrongly formatted').waitFor();
      await shot(page, '14-onboarding-bank-accounts-errors');
      await page.getByLabel('IBAN').first().fill('CH93 0076 2011 6238 5295 7');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('VAT').waitFor();
      await page.getByLabel('VAT').fill('120');
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.getByText("VAT can't exceed 99%").waitFor();
      await shot(page, '15-onboarding-extra-error');
      await page.getByLabel('VAT').fill('8.1');
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.getByText('Finished, redirecting you').waitFor();
      await page.screenshot({ path: `${out}/16-onboarding-finished.png`, fullPage: true });
      await page.waitForURL(`${base}/`);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    },
  },
  dashboard: {
    run: async (page) => {
      await page.goto(`${base}/`);
      await page.getByText('Bank UBS').waitFor();
      await shot(page, '20-dashboard');
    },
  },
  mobile: {
    viewport: { width: 390, height: 844 },
    run: async (page) => {
      await page.goto(`${base}/`);
      await page.getByText('Bank UBS').waitFor();
      await shot(page, '21-dashboard-mobile');
      await page.getByRole('button', { name: /Acme Treuhand AG/ }).click();
      await shot(page, '22-menu-mobile');
    },
  },
  entryAdd: {
    run: async (page) => {
      await page.goto(`${base}/accounting/entry/add`);
      await page.getByLabel('Description').fill('Miete Dezember');
      await page.getByRole('combobox', { name: 'Account, line 1' }).click();
      await page.keyboard.type('6000');
      await page.getByRole('option', { name: '6000 Raumaufwand' }).click();
      await page.getByLabel('Debit, line 1').fill('2450.5');
      await page.getByRole('combobox', { name: 'Account, line 2' }).click();
      await page.getByRole('option', { name: '1000 Bank UBS' }).click();
      await page.getByLabel('Credit, line 2').fill('2400');
      await shot(page, '23-entry-add-unbalanced');
      await page.getByRole('button', { name: 'Add line' }).click();
      await page.getByRole('combobox', { name: 'Account, line 3' }).click();
      await page.getByRole('option', { name: '2200 Geschuldete MWST' }).click();
      await page.getByLabel('Credit, line 3').fill('50.50');
      await shot(page, '24-entry-add-balanced');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('was successfully added.').waitFor();
      await shot(page, '25-dashboard-banner');
    },
  },
  entries: {
    run: async (page) => {
      await page.goto(`${base}/accounting/entry`);
      await page.getByText('Miete November').first().waitFor();
      await shot(page, '26-entries');
      await page.getByText('Rechnung 2026-041 Müller GmbH').first().click();
      await page.getByRole('heading', { name: /Journal Entry/ }).waitFor();
      await shot(page, '27-entry-detail');
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('The books are locked for this date').waitFor();
      await shot(page, '28-entry-edit-locked');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByText('The books are locked for this date').waitFor();
      await shot(page, '29-entry-delete-locked');
    },
  },
  journal: {
    run: async (page) => {
      await page.goto(`${base}/accounting/journal`);
      await page.getByText('Miete November').first().waitFor();
      await shot(page, '30-journal');
    },
  },
  accounts: {
    run: async (page) => {
      await page.goto(`${base}/accounting/account`);
      await page.getByText('Raumaufwand').waitFor();
      await shot(page, '31-ledger-accounts');
      await page.getByRole('button', { name: 'New account' }).click();
      await page.getByRole('dialog').getByLabel('Number').fill('12');
      await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
      await page.getByText('account number must have 4 to 10 digits').waitFor();
      await shot(page, '32-account-modal-errors');
      await page.getByRole('dialog').getByLabel('Number').fill('1000');
      await page.getByRole('dialog').getByLabel('Name').fill('Kasse');
      await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
      await page.getByText('Account number 1000 already exists').waitFor();
      await shot(page, '33-account-modal-server-error');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete account 1000' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('has postings').waitFor();
      await shot(page, '34-account-delete-refused');
    },
  },
  accountDetail: {
    run: async (page) => {
      await page.goto(`${base}/accounting/account/1/detail`);
      await page.getByText('Opening balance').waitFor();
      await shot(page, '35-account-detail');
    },
  },
  trialBalance: {
    run: async (page) => {
      await page.goto(`${base}/accounting/trial-balance`);
      await page.getByText('Balanced').first().waitFor();
      await shot(page, '36-trial-balance');
    },
  },
  trialBalanceError: {
    options: { overrides: { 'POST /api/accounting/balance/get': (route) => json(route, 500, { error: 'Internal server error', requestId: 'req-1' }) } },
    run: async (page) => {
      await page.goto(`${base}/accounting/trial-balance`);
      await page.getByText('Could not load the trial balance').waitFor();
      await shot(page, '37-trial-balance-error');
    },
  },
  import: {
    run: async (page) => {
      await page.goto(`${base}/accounting/import`);
      const chart = 'number,name,type,currency\n' + Array.from({ length: 30 }, (_, i) => `${1000 + i * 10},Konto ${i},asset,CHF`).join('\n');
      const journal =
        'date,entry,description,account,amount,currency\n' +
        Array.from({ length: 40 }, (_, i) => `2026-01-${String((i % 28) + 1).padStart(2, '0')},E${Math.floor(i / 2)},Buchung ${i},${i % 2 ? 2810 : 1000},${i % 2 ? '-' : ''}100.00,CHF`).join('\n');
      const inputs = page.locator('input[type=file]');
      await inputs.nth(0).setInputFiles({ name: 'chart.csv', mimeType: 'text/csv', buffer: Buffer.from(chart) });
      await inputs.nth(1).setInputFiles({ name: 'journal.csv', mimeType: 'text/csv', buffer: Buffer.from(journal) });
      await page.getByText('30 rows').waitFor();
      await shot(page, '38-import-preview');
      await page.getByRole('button', { name: 'Import' }).nth(0).click();
      await page.getByText('48 accounts created').waitFor();
      await page.getByRole('button', { name: 'Import' }).nth(1).click();
      await page.getByText('could not map account 2810').waitFor();
      await shot(page, '39-import-results');
    },
  },
  placeholders: {
    run: async (page) => {
      await page.goto(`${base}/inbox`);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await shot(page, '40-placeholder-inbox');
      await page.goto(`${base}/no/such/page`);
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await shot(page, '41-not-found');
      await page.goto(`${base}/accounting`);
      await page.getByRole('heading', { name: 'Accounting' }).waitFor();
    },
  },
  renderError: {
    options: { overrides: { 'POST /api/accounting/entry/detail': (route) => json(route, 200, { id: 5, entryAccounts: null }) } },
    run: async (page) => {
      await page.goto(`${base}/accounting/entry/5/detail`);
      await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
      await shot(page, '42-render-error');
    },
  },
  logout: {
    run: async (page) => {
      await page.goto(`${base}/`);
      await page.getByText('Bank UBS').waitFor();
      await page.getByRole('link', { name: 'Logout' }).click();
      await page.getByRole('heading', { name: 'Login to Acme Treuhand AG' }).waitFor();
      await shot(page, '43-after-logout');
    },
  },
};

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
});
try {
  for (const [name, scenario] of Object.entries(scenarios)) {
    if (only && !name.toLowerCase().includes(only.toLowerCase())) continue;
    console.log(name);
    const context = await browser.newContext({ viewport: scenario.viewport ?? { width: 1366, height: 900 }, locale: 'de-CH' });
    const page = await context.newPage();
    // The render-error scenario throws on purpose; React logs the caught error.
    const expectErrors = name === 'renderError';
    page.on('console', (message) => {
      const text = message.text();
      const expected =
        /page view not recorded|logout call failed/.test(text) ||
        (message.type() === 'error' && /Failed to load resource: the server responded with a status of (401|404|409|400|500)/.test(text)) ||
        expectErrors;
      if ((message.type() === 'error' || /Content Security Policy/i.test(text)) && !expected) problems.push(`[${name}] console: ${text}`);
    });
    page.on('pageerror', (error) => {
      if (!expectErrors) problems.push(`[${name}] pageerror: ${error.message}`);
    });
    await mockApi(page, scenario.options);
    try {
      await scenario.run(page);
    } catch (error) {
      problems.push(`[${name}] failed: ${(error as Error).message.split('\n')[0]}`);
      await page.screenshot({ path: `${out}/FAILED-${name}.png`, fullPage: true }).catch(() => undefined);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(`${shots} screenshots in ${out}`);
if (problems.length) {
  console.log(`${problems.length} problems:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
