/// <reference lib="dom" />
/**
 * The command palette (spec §2.10, issue 17 §1–§2) in Chromium: Ctrl+K, the placeholder, quick
 * jumps INV{n} / EN{n} / CO {text}, the page list with arrow keys and Enter, 'No results found',
 * Escape; voice navigation through a fake SpeechRecognition that delivers phrases (speech
 * synthesis stubbed to record what Bilan says), and the disabled microphone without one.
 */
import { expect, test, type Page } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { join } from 'node:path';
import { screenshotDir, signUpAndOnboard, snap } from './support';

async function openPalette(page: Page) {
  // The shell is up (its shortcut registered) once its palette button shows.
  await expect(page.getByRole('button', { name: 'Command palette' })).toBeVisible();
  const search = page.getByPlaceholder('Type a command or search...');
  // A palette just closed by choosing a result is still fading out: wait until it is gone.
  await expect(search).toHaveCount(0);
  await page.keyboard.press('Control+K');
  await expect(search).toBeVisible();
  return search;
}

test('Ctrl+K: quick jumps to an invoice, an entry and a company, the page list by keyboard, nothing found, Escape; no speech recognition, no voice', async ({ page }) => {
  // This browser has no speech recognition: the microphone is shown disabled, saying why.
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.webkitSpeechRecognition;
    delete w.SpeechRecognition;
  });
  await signUpAndOnboard(page, { name: `Palette ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const company = await api('/api/company/insert', { data: { name: 'Muster Kunde AG', address: { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', country: { id: 1 } } } });
  const accountId = async (number: string) => (await api('/api/accounting/account/list', { filters: { text: number } })).data.find((a: any) => a.number === number).id as number;
  const entry = await api('/api/accounting/entry/insert', {
    data: { dateLedger: '2026-01-15', description: 'Palette entry', entryAccounts: [{ account: { id: await accountId('1000') }, amount: '10.00', direction: 1 }, { account: { id: await accountId('3200') }, amount: '10.00', direction: -1 }] },
  });

  await page.goto('/');
  let search = await openPalette(page);
  await snap(page, 'palette-01-open');
  // The page list: the first match is selected, arrow down selects the second, Enter goes there.
  await search.fill('open');
  const results = page.getByRole('dialog');
  await expect(results.getByText('Open Invoice')).toBeVisible();
  await expect(results.getByText('Open Bills')).toBeVisible();
  await search.press('ArrowDown');
  await expect(results.locator('[data-selected]')).toContainText('Open Bills');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/bill\?filterStatus=true$/);

  // CO {text}: the company, linking to its ap-ar page.
  search = await openPalette(page);
  await search.fill('CO Mus');
  await expect(results.getByText('Muster Kunde AG')).toBeVisible();
  await snap(page, 'palette-02-company');
  await results.getByText('Muster Kunde AG').click();
  await expect(page).toHaveURL(new RegExp(`/company/${company.uuid}/ap-ar$`));

  // INV{n}: the invoice with that number; none with 5 → the invoice list is offered.
  const invoice = await customerInvoice(api, { name: 'Palette Kunde AG', address: { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', country: { id: 1 } } }, {
    vat: '0.081',
    dateInvoice: '2026-01-15',
    items: [{ name: 'Beratung', amount: '1', price: '100' }],
  });
  search = await openPalette(page);
  await search.fill(`INV${invoice.id}`);
  await results.getByText(`Invoice ${invoice.refNumber}`).click();
  await expect(page).toHaveURL(new RegExp(`/invoice/${invoice.uuid}/detail$`));
  search = await openPalette(page);
  await search.fill('INV5');
  await expect(results.getByText('Invoices (no invoice BILAN000005)')).toBeVisible();
  // EN{n}: the entry's detail.
  await search.fill(`EN${entry.id}`);
  await results.getByText(`Journal entry EN${entry.id}`).click();
  await expect(page).toHaveURL(new RegExp(`/accounting/entry/${entry.id}/detail$`));

  search = await openPalette(page);
  await search.fill('qqqq zzzz');
  await expect(results.getByText('No results found')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Voice command (not available in this browser)' })).toBeDisabled();
  // The viewport only: a full-page shot resizes the window, which closes the palette.
  await page.screenshot({ path: join(screenshotDir, 'palette-03-nothing-found.png') });
  await search.press('Escape');
  await expect(page.getByPlaceholder('Type a command or search...')).toHaveCount(0);
});

test('voice: "open bills" goes there and says so aloud, "close" closes', async ({ page }) => {
  // A fake recognizer: each start() delivers the next phrase of window.__phrases.
  await page.addInitScript(() => {
    const w = window as unknown as { __phrases: string[]; __spoken: string[]; webkitSpeechRecognition: unknown; SpeechRecognition: unknown };
    w.__phrases = [];
    w.__spoken = [];
    class FakeRecognition {
      lang = '';
      interimResults = false;
      maxAlternatives = 1;
      onresult: ((event: unknown) => void) | null = null;
      onerror: ((event: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        const phrase = w.__phrases.shift() ?? '';
        setTimeout(() => {
          this.onresult?.({ results: [[{ transcript: phrase }]] });
          this.onend?.();
        }, 50);
      }
      stop() {
        this.onend?.();
      }
    }
    w.SpeechRecognition = FakeRecognition;
    w.webkitSpeechRecognition = FakeRecognition;
    window.speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => {
      w.__spoken.push(utterance.text);
    };
  });
  await signUpAndOnboard(page, { name: `Voice ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/');
  await openPalette(page);
  await page.evaluate(() => (window as unknown as { __phrases: string[] }).__phrases.push('open bills'));
  await page.getByRole('button', { name: 'Voice command' }).click();
  await expect(page).toHaveURL(/\/bill\?filterStatus=true$/);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken)).toEqual(['taking you to Open Bills']);

  await openPalette(page);
  await page.evaluate(() => (window as unknown as { __phrases: string[] }).__phrases.push('close'));
  await page.getByRole('button', { name: 'Voice command' }).click();
  await expect(page.getByPlaceholder('Type a command or search...')).toHaveCount(0);

});
