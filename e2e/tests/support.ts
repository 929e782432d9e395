import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

const here = dirname(fileURLToPath(import.meta.url));
export const screenshotDir = join(here, '..', 'screenshots');
export const fixturesDir = join(here, '..', '..', 'fixtures');

/** Full-page screenshot under e2e/screenshots/ (not committed), for a person to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  // A full-page shot would paint the shell's fixed footer across the middle of a long page (where
  // the viewport ended); for the picture it sits at the end of the page instead.
  await page.screenshot({
    path: join(screenshotDir, `${name}.png`),
    fullPage: true,
    style: '.mantine-AppShell-footer { position: static !important; }',
  });
}

/** An amount as shown by the app (fr-CH grouping, negatives in brackets) as a plain decimal string. */
export function shownAmount(text: string): string {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('(') && trimmed.endsWith(')');
  const digits = trimmed.replace(/[()\s\u00a0\u202f'’]/g, '').replace(',', '.');
  if (digits === '-' || digits === '') return '0.00';
  return negative ? `-${digits}` : digits;
}

/** Today in Switzerland, YYYY-MM-DD: the date the app gives today (web `today()`, server `todayInSwitzerland`). */
export const swissToday = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(new Date());

/** The date `days` days before `iso` (YYYY-MM-DD), calendar arithmetic in UTC. */
export function daysBefore(iso: string, days: number): string {
  const at = new Date(`${iso}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() - days);
  return at.toISOString().slice(0, 10);
}

export interface Workplace {
  name: string;
  currency: 'CHF' | 'USD';
  /**
   * Who signs up (default Anna Muster, anna.muster@example.ch, whom most specs share). A spec that
   * runs beside the others (accessibility.spec.ts, playwright.config.ts) signs up its own person:
   * a language chosen there must not reach another spec's screens.
   */
  person?: { email: string; name: string };
}

/**
 * Signs up a new workplace through the built-in OpenID provider and completes the onboarding
 * wizard; ends on the dashboard. Screenshots every step when `shots` is set.
 */
export async function signUpAndOnboard(page: Page, workplace: Workplace, shots = false): Promise<void> {
  await page.goto('/login/signup');
  await expect(page.getByRole('heading', { name: 'Create your Bilan workplace' })).toBeVisible();
  await page.getByLabel('Workplace name').fill(workplace.name);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('I read and agree to the Terms and Conditions').check();
  if (shots) await snap(page, '01-signup');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();

  // The built-in OpenID provider's sign-in form.
  await page.locator('#email').fill(workplace.person?.email ?? 'anna.muster@example.ch');
  await page.locator('#name').fill(workplace.person?.name ?? 'Anna Muster');
  if (shots) await snap(page, '02-local-idp');
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.waitForURL('**/onboarding');
  await expect(page.getByText('Set up your workplace')).toBeVisible();
  await page.getByRole('button', { name: 'We are not a registered Swiss company' }).click();
  if (shots) await snap(page, '03-onboarding-company');
  // An empty name is refused with the spec's message, nothing moves on.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('This field must be given').first()).toBeVisible();
  await page.getByLabel('Company name').fill(`${workplace.name} AG`);
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByLabel('Street').fill('Bahnhofstrasse');
  await page.getByLabel('House number').fill('1');
  await page.getByLabel('ZIP').fill('8001');
  await page.getByLabel('City').fill('Zürich');
  if (shots) await snap(page, '04-onboarding-address');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByLabel('Ledger code')).toHaveValue('1000');
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Bank');
  await page.getByLabel('IBAN').fill('CH93 0076 2011 6238 5295 8');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('The IBAN is wrongly formatted').first()).toBeVisible();
  await page.getByLabel('IBAN').fill('CH93 0076 2011 6238 5295 7');
  if (shots) await snap(page, '05-onboarding-bank');
  await page.getByRole('button', { name: 'Next' }).click();

  // Amount and rate inputs show the user's decimal separator: a comma in the spec's default fr-CH (issue 17 §3).
  await expect(page.getByLabel('VAT')).toHaveValue('8,1');
  if (workplace.currency !== 'CHF') {
    await page.getByRole('combobox', { name: 'Default currency' }).fill(workplace.currency);
    await page.getByRole('option', { name: workplace.currency, exact: true }).click();
  }
  if (shots) await snap(page, '06-onboarding-extra');
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[] } | null;
const jsQR: JsQr = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as unknown as JsQr;

/** The Swiss QR code of a PDF's first page that has one, decoded from a 200 dpi rendering (pdftoppm + jsQR). */
export function decodeQr(pdfPath: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-e2e-pdf-'));
  execFileSync('pdftoppm', ['-r', '200', '-png', pdfPath, join(dir, 'page')]);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.png')).sort()) {
    const png = PNG.sync.read(readFileSync(join(dir, file)));
    const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
    if (code) return new TextDecoder().decode(new Uint8Array(code.binaryData));
  }
  return null;
}
