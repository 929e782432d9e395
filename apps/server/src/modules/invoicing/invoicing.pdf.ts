/**
 * Invoice PDF (spec §7.1 `/invoice/pdf {lang, uuid, onlyReceipt}`, issue #4 §4): A4 with header,
 * addresses, lines, totals and VAT summary, and the Swiss QR-bill payment part with receipt at the
 * bottom of the last page (or of a page of its own). `onlyReceipt` renders the payment part alone
 * (A6/5 landscape slip). Data is checked with @bilan/domain's validateQrBill first (SIX IG v2.3
 * rules swissqrbill skips).
 * Layout (issue #4 audit §2): every block checks the space left before it is drawn, so pdfkit never
 * breaks a page on its own; the line table continues on the next page with its header repeated and
 * the subtotal carried forward; each page says "Page n/m".
 * Fonts (src/lib/pdf.ts): the invoice in DejaVu Sans, the payment part and receipt in Liberation
 * Sans (SIX IG v2.3 §3.4 and the style guide allow Arial, Frutiger, Helvetica or Liberation Sans
 * there); both draw every character of the SPS 2025 set (Latin-1, Latin Extended-A, Ș ș Ț ț, €).
 * Numbers in the invoice's language (de-CH/it-CH 2'565.25, fr-CH 2 565,25, en 2,565.25); the
 * payment part as SIX prescribes (2 565.25, by swissqrbill). The VAT number as Swiss practice
 * writes it: CHE-123.456.789 MWST (TVA, IVA, VAT by language).
 */
import type { SwissQRBill } from 'swissqrbill/pdf';
import type { Data as QrData, FontName } from 'swissqrbill/types';
import {
  countryIsoCode,
  DOCUMENT_LOCALES,
  encodeSwicoS1,
  formatAmountLocale,
  formatCreditorReference,
  formatDate,
  formatQrReference,
  formatReferenceNumber,
  toBaseAmount,
  toMoney,
  swicoNumber,
  swissUid,
  validateQrBill,
  vatRateToPercent,
  type CountryId,
  type QrBillData,
} from '@bilan/domain';
import { collect, FONT, FONT_BOLD, newDocument, QR_FONT } from '../../lib/pdf.js';
import { invoicingError } from './invoicing.errors.js';
import type { Invoice } from './invoicing.service.js';


export type PdfLang = 'en' | 'de' | 'fr' | 'it';

type TextKey =
  | 'invoice'
  | 'date'
  | 'due'
  | 'terms'
  | 'reference'
  | 'item'
  | 'qty'
  | 'price'
  | 'discount'
  | 'total'
  | 'net'
  | 'vat'
  | 'rounding'
  | 'due_total'
  | 'summary'
  | 'rate'
  | 'base'
  | 'carried'
  | 'brought'
  | 'page'
  | 'fx';
const TEXTS: Record<PdfLang, Record<TextKey, string>> = {
  en: {
    invoice: 'Invoice', date: 'Date', due: 'Due date', terms: 'Payment terms: {days} days net', reference: 'Reference', item: 'Description',
    qty: 'Qty', price: 'Price', discount: 'Discount', total: 'Total', net: 'Subtotal', vat: 'VAT', rounding: 'Rounding',
    due_total: 'Total due', summary: 'VAT summary', rate: 'Rate', base: 'Base', carried: 'Carried forward',
    brought: 'Brought forward', page: 'Page', fx: 'Exchange rate',
  },
  de: {
    invoice: 'Rechnung', date: 'Datum', due: 'Fällig am', terms: 'Zahlbar innert {days} Tagen netto', reference: 'Referenz', item: 'Beschreibung',
    qty: 'Menge', price: 'Preis', discount: 'Rabatt', total: 'Betrag', net: 'Zwischensumme', vat: 'MWST', rounding: 'Rundung',
    due_total: 'Total fällig', summary: 'MWST-Übersicht', rate: 'Satz', base: 'Basis', carried: 'Übertrag',
    brought: 'Übertrag', page: 'Seite', fx: 'Umrechnungskurs',
  },
  fr: {
    invoice: 'Facture', date: 'Date', due: 'Échéance', terms: 'Payable à {days} jours net', reference: 'Référence', item: 'Désignation',
    qty: 'Qté', price: 'Prix', discount: 'Rabais', total: 'Montant', net: 'Sous-total', vat: 'TVA', rounding: 'Arrondi',
    due_total: 'Total dû', summary: 'Récapitulatif TVA', rate: 'Taux', base: 'Base', carried: 'À reporter',
    brought: 'Report', page: 'Page', fx: 'Taux de change',
  },
  it: {
    invoice: 'Fattura', date: 'Data', due: 'Scadenza', terms: 'Pagabile entro {days} giorni netto', reference: 'Riferimento', item: 'Descrizione',
    qty: 'Qtà', price: 'Prezzo', discount: 'Sconto', total: 'Importo', net: 'Subtotale', vat: 'IVA', rounding: 'Arrotondamento',
    due_total: 'Totale dovuto', summary: 'Riepilogo IVA', rate: 'Aliquota', base: 'Base', carried: 'Da riportare',
    brought: 'Riporto', page: 'Pagina', fx: 'Tasso di cambio',
  },
};

/**
 * A quote printed with the invoice's layout (issue 15 §4, decision 031): its title and number, its
 * validity instead of the due date and reference, and no payment part.
 */
export interface QuoteHeading {
  /** 'AN-00001'. */
  number: string;
  /** YYYY-MM-DD. */
  validUntil: string;
}
const QUOTE_TEXTS: Record<PdfLang, { title: string; valid: string }> = {
  en: { title: 'Quote', valid: 'Valid until' },
  de: { title: 'Offerte', valid: 'Gültig bis' },
  fr: { title: 'Offre', valid: 'Valable jusqu’au' },
  it: { title: 'Offerta', valid: 'Valida fino al' },
};

/** Country names for foreign addresses, per language (the Country enumeration of spec §3). */
const COUNTRY_NAMES: Record<PdfLang, Record<CountryId, string>> = {
  en: { 1: 'Switzerland', 2: 'USA', 3: 'United Kingdom', 4: 'United Arab Emirates', 5: 'France', 6: 'Germany', 7: 'Canada', 8: 'Australia', 9: 'Japan', 10: 'Italy', 11: 'Spain', 12: 'Brazil', 13: 'India', 14: 'China' },
  de: { 1: 'Schweiz', 2: 'USA', 3: 'Vereinigtes Königreich', 4: 'Vereinigte Arabische Emirate', 5: 'Frankreich', 6: 'Deutschland', 7: 'Kanada', 8: 'Australien', 9: 'Japan', 10: 'Italien', 11: 'Spanien', 12: 'Brasilien', 13: 'Indien', 14: 'China' },
  fr: { 1: 'Suisse', 2: 'États-Unis', 3: 'Royaume-Uni', 4: 'Émirats arabes unis', 5: 'France', 6: 'Allemagne', 7: 'Canada', 8: 'Australie', 9: 'Japon', 10: 'Italie', 11: 'Espagne', 12: 'Brésil', 13: 'Inde', 14: 'Chine' },
  it: { 1: 'Svizzera', 2: 'Stati Uniti', 3: 'Regno Unito', 4: 'Emirati Arabi Uniti', 5: 'Francia', 6: 'Germania', 7: 'Canada', 8: 'Australia', 9: 'Giappone', 10: 'Italia', 11: 'Spagna', 12: 'Brasile', 13: 'India', 14: 'Cina' },
};

export interface Creditor {
  name: string;
  uid: string | null;
  vat_number: string | null;
  street: string | null;
  house_number: string | null;
  zip: string | null;
  city: string | null;
  country_id: number | null;
  /** The instance's letterhead (issue 15 §6): logo and contact lines; absent or null: none. */
  letterhead?: { logo: { type: string; bytes: Buffer } | null; contact: string[] } | null | undefined;
}

const iso = (countryId: number | null) => (countryId ? (countryIsoCode[countryId as CountryId] ?? 'CH') : 'CH');

/**
 * Postal address lines (issue #4 audit §8): Swiss addresses end with "8000 Zürich" (Swiss Post: no
 * country code before the postcode); a foreign address adds its country on a line of its own, in
 * the invoice's language.
 */
export function addressLines(
  address: { street: string | null; houseNumber: string | null; zip: string | null; city: string | null; countryId: number | null },
  lang: PdfLang,
): string[] {
  const lines = [[address.street, address.houseNumber].filter(Boolean).join(' '), [address.zip, address.city].filter(Boolean).join(' ')].filter(Boolean);
  const country = address.countryId ?? 1;
  if (country !== 1) lines.push(COUNTRY_NAMES[lang][country as CountryId] ?? iso(country));
  return lines;
}

/**
 * The invoice's Swico S1 billing information (SIX IG QR-bill v2.3 Annex D), so the customer's
 * software books it without typing: invoice number, invoice date, the creditor's UID, VAT (one rate
 * on the whole amount, or each rate with its net amount) and the net payment term. VAT is left out
 * when it would not fit: the message needs room too (together at most 140 characters).
 */
export function invoiceBillInformation(invoice: Invoice, creditor: Creditor): string {
  const lines = invoice.totals.vatLines;
  const vat =
    lines.length > 1
      ? nonEmpty(swicoNetAmounts(lines, invoice.totals.rounding, invoice.totals.total))
      : lines[0] && !toMoney(lines[0].vat).isZero()
        ? [{ rate: vatRateToPercent(lines[0].rate) }]
        : undefined;
  const base = {
    invoiceNumber: formatReferenceNumber(invoice.id),
    invoiceDate: invoice.dateInvoice,
    uid: swissUid(creditor.uid) ?? swissUid(creditor.vat_number),
    conditions: invoice.paymentTermDays >= 0 ? [{ discount: '0', days: invoice.paymentTermDays }] : undefined,
  };
  const full = encodeSwicoS1({ ...base, vat });
  return full.length <= 100 ? full : encodeSwicoS1(base);
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length ? list : undefined);

/**
 * Swico S1 /32/ with several rates: each rate with its net amount, so that Σ (net + net × rate,
 * each VAT rounded to the cent) is the QR amount (Annex D: the billing information must correspond
 * to the bill). The 5-Rappen rounding is not in any rate's net amount on the invoice; it goes where
 * the books put it — into the net amount of the largest base (postings.service.ts: the largest
 * revenue takes the rounding), which leaves that rate's VAT unchanged for any rounding below half
 * a cent of VAT. Where it would change that VAT, the rounding stands as a 0 % amount of its own.
 */
export function swicoNetAmounts(
  lines: readonly { rate: string; base: string; vat: string }[],
  rounding: string,
  total: string,
): { rate: string; net: string }[] {
  const entries = lines.map((line) => ({ rate: line.rate, net: toMoney(line.base) }));
  const roundingAmount = toMoney(rounding);
  if (!roundingAmount.isZero()) {
    const largest = entries.reduce((best, entry) => (entry.net.gt(best.net) ? entry : best), entries[0]!);
    const before = largest.net;
    largest.net = before.plus(roundingAmount);
    const vatOf = (net: typeof before) => net.times(toMoney(largest.rate)).toDecimalPlaces(2);
    if (!vatOf(largest.net).eq(vatOf(before))) {
      largest.net = before;
      const zero = entries.find((entry) => toMoney(entry.rate).isZero());
      if (zero) zero.net = zero.net.plus(roundingAmount);
      else entries.push({ rate: '0', net: roundingAmount });
    }
  }
  const sum = entries.reduce((acc, entry) => acc.plus(entry.net).plus(entry.net.times(toMoney(entry.rate)).toDecimalPlaces(2)), toMoney(0));
  // Should the invoice's own VAT lines ever disagree with net × rate, the rate list is left out rather than contradict the amount.
  if (!sum.eq(toMoney(total))) return [];
  return entries.map((entry) => ({ rate: vatRateToPercent(entry.rate), net: swicoNumber(entry.net.toFixed(2)) }));
}

/** The QR-bill data of an invoice (structured addresses, type S), validated (400 `qrBill.*` otherwise). */
export function qrBillData(invoice: Invoice, creditor: Creditor): QrBillData {
  const billInformation = invoiceBillInformation(invoice, creditor);
  const data: QrBillData = {
    account: invoice.paymentProfile.iban ?? '',
    creditor: {
      name: creditor.name,
      street: creditor.street ?? undefined,
      buildingNumber: creditor.house_number ?? undefined,
      zip: creditor.zip ?? '',
      city: creditor.city ?? '',
      country: iso(creditor.country_id),
    },
    debtor: {
      name: invoice.company.name,
      street: invoice.address.street,
      buildingNumber: invoice.address.houseNumber ?? undefined,
      zip: invoice.address.zip,
      city: invoice.address.city,
      country: iso(invoice.address.country.id),
    },
    amount: invoice.totals.total,
    currency: invoice.currency === 'EUR' ? 'EUR' : 'CHF',
    reference: invoice.paymentReference,
    message: `${formatReferenceNumber(invoice.id)}${invoice.description ? ` ${invoice.description}` : ''}`.slice(0, 140 - billInformation.length),
    billInformation,
  };
  const fields = validateQrBill(data);
  const [first] = Object.entries(fields);
  if (first) {
    throw invoicingError(
      'qr_bill_invalid',
      `the QR-bill cannot be made: ${first[0]}: ${first[1]}`,
      Object.fromEntries(Object.entries(fields).map(([key, value]) => [`qrBill.${key}`, value])),
    );
  }
  return data;
}

export function toSwissQrBill(data: QrBillData): QrData {
  const address = (a: QrBillData['creditor']) => ({
    name: a.name,
    address: a.street ?? '',
    buildingNumber: a.buildingNumber,
    zip: a.zip,
    city: a.city,
    country: a.country,
  });
  return {
    creditor: { ...address(data.creditor), account: data.account },
    debtor: data.debtor ? address(data.debtor) : undefined,
    // swissqrbill takes a JS number and prints it with toFixed(2); a 2-decimal string ≤ 999 999 999.99
    // round-trips exactly through a double, so no amount changes here.
    amount: data.amount === undefined ? undefined : Number(data.amount),
    currency: data.currency,
    reference: data.reference,
    message: data.message,
    additionalInformation: data.billInformation,
  };
}

// ------------------------------------------------------------------------------------------------
// A4 layout
// ------------------------------------------------------------------------------------------------

const MARGIN = 50;
const RIGHT = 545;
/** Lowest y a text line may end at: pdfkit breaks a page itself below the bottom margin. */
const PAGE_END = 841.89 - MARGIN;
const ROW_GAP = 2;
const LINE_HEIGHT = 11;
const TOTAL_ROW = 13;
const COLS = { item: 50, qty: 290, price: 340, discount: 410, total: 470 } as const;

/** The VAT number's suffix in each language (MWSTG art. 26: the number and MWST, TVA or IVA). */
const VAT_SUFFIX: Record<PdfLang, string> = { de: 'MWST', fr: 'TVA', it: 'IVA', en: 'VAT' };

/** 'CHE-123.456.789 MWST' in the invoice's language, or 'UID CHE-…' for a company without VAT number, or ''. */
export function vatNumberLine(creditor: Creditor, lang: PdfLang): string {
  const vat = swissUid(creditor.vat_number);
  if (vat) return `${vat} ${VAT_SUFFIX[lang]}`;
  const uid = swissUid(creditor.uid) ?? creditor.uid;
  return uid ? `UID ${uid}` : '';
}

const mm = (millimetres: number) => (millimetres * 72) / 25.4;
type QrAddress = NonNullable<QrData['debtor']>;

/** An address as swissqrbill prints it, optionally without street and number. */
function addressText(address: QrAddress, withStreet: boolean): string {
  const town = `${address.country !== 'CH' ? `${address.country} - ` : ''}${address.zip} ${address.city}`;
  const street = [address.address, address.buildingNumber].filter((part) => part !== undefined && part !== '').join(' ');
  return [address.name, withStreet && street ? street : null, town].filter(Boolean).join('\n');
}

/**
 * Whether the receipt's information section (account and creditor, reference, debtor), laid out as
 * swissqrbill lays it out from 12 mm down (headings 6 pt bold, values 8 pt, 52 mm wide), would run
 * into the amount section that starts 68 mm down.
 */
function receiptOverflows(doc: PDFKit.PDFDocument, qr: QrData): boolean {
  const width = mm(52);
  const heading = () => doc.font(`${QR_FONT}-Bold`).fontSize(6).heightOfString('Account / Payable to', { width, lineGap: 1 });
  const value = (text: string) => doc.font(QR_FONT).fontSize(8).heightOfString(text, { width, lineGap: -0.5 });
  const gap = () => doc.fontSize(9).currentLineHeight(true);
  const reference = qr.reference ? (qr.reference.startsWith('RF') ? formatCreditorReference(qr.reference) : formatQrReference(qr.reference)) : null;
  let height = heading() + value(`${qr.creditor.account}\n${addressText(qr.creditor, true)}`) + gap();
  if (reference) height += heading() + value(reference) + gap();
  height += heading() + (qr.debtor ? value(addressText(qr.debtor, true)) : mm(20));
  doc.font(FONT);
  return mm(12) + height > mm(68) - 2;
}

/**
 * The creditor's block at the top of every document (invoice, quote, credit note, reminder): name,
 * postal address, VAT number and the letterhead's contact lines at the left, the letterhead's logo
 * fitted into 215 × 55 pt at the right above the window address (C5 window from y 110), so it can
 * never cover the address. Ends in the body font at 9 pt.
 */
export function creditorHeader(doc: PDFKit.PDFDocument, creditor: Creditor, lang: PdfLang): void {
  const logo = creditor.letterhead?.logo;
  if (logo) {
    try {
      doc.image(logo.bytes, 330, 40, { fit: [RIGHT - 330, 55], align: 'right' });
    } catch {
      // A logo PDFKit cannot decode (an exotic PNG variant) is left out: the document itself must still be issued.
    }
  }
  doc.font(FONT_BOLD).fontSize(14).text(creditor.name, MARGIN, 40, { width: 280 });
  doc.font(FONT).fontSize(9);
  const lines = [
    ...addressLines({ street: creditor.street, houseNumber: creditor.house_number, zip: creditor.zip, city: creditor.city, countryId: creditor.country_id }, lang),
    vatNumberLine(creditor, lang),
    ...(creditor.letterhead?.contact ?? []),
  ].filter(Boolean);
  for (const line of lines) doc.text(line, { width: 280 });
}

/**
 * The payment part with receipt in Liberation Sans. A receipt whose addresses would run into its
 * amount section leaves out the street and number of both addresses there (SIX style guide, "The
 * receipt": permitted when space is limited); the payment part and the QR code keep them. swissqrbill
 * has no option for it: its (private) address formatter is replaced on this instance for the text
 * drawn left of the receipt's edge (62 mm); should its internals change, the receipt keeps the full
 * addresses, as before.
 */
export async function paymentPart(doc: PDFKit.PDFDocument, qr: QrData, lang: PdfLang): Promise<SwissQRBill> {
  // Loaded with the first payment part, not at start-up (issue 18 §3).
  const { SwissQRBill } = await import('swissqrbill/pdf');
  const bill = new SwissQRBill(qr, { language: lang.toUpperCase() as 'EN', fontName: QR_FONT as FontName });
  if (!receiptOverflows(doc, qr)) return bill;
  const internals = bill as unknown as { formatAddress?: (address: QrAddress) => string };
  const full = internals.formatAddress;
  if (typeof full !== 'function') return bill;
  internals.formatAddress = function (this: unknown, address: QrAddress): string {
    return doc.x < mm(62) ? addressText(address, false) : full.call(this, address);
  };
  return bill;
}

/**
 * Renders the invoice PDF; resolves to the file's bytes. 400 (`qrBill.*`) when the QR-bill data is
 * invalid. With `quote`, the same layout as a quote: its title and validity, no payment part.
 */
export async function renderInvoicePdf(invoice: Invoice, creditor: Creditor, lang: PdfLang, onlyReceipt: boolean, quote?: QuoteHeading): Promise<Buffer> {
  const qr = quote ? null : toSwissQrBill(qrBillData(invoice, creditor));
  const t = TEXTS[lang];
  const title = quote ? `${QUOTE_TEXTS[lang].title} ${quote.number}` : `${t.invoice} ${formatReferenceNumber(invoice.id)}`;
  if (onlyReceipt && qr) {
    const { SwissQRBill } = await import('swissqrbill/pdf');
    const doc = await newDocument([SwissQRBill.width, SwissQRBill.height], 0);
    doc.info.Title = `${t.invoice} ${formatReferenceNumber(invoice.id)}`;
    const done = collect(doc);
    (await paymentPart(doc, qr, lang)).attachTo(doc, 0, 0);
    doc.end();
    return done;
  }

  const doc = await newDocument('A4', MARGIN);
  doc.info.Title = title;
  const done = collect(doc);
  const right = (text: string, x: number, width: number, rowY: number) => doc.text(text, x, rowY, { width, align: 'right', lineBreak: false });
  const money = (value: string) => formatAmountLocale(value, DOCUMENT_LOCALES[lang]);
  // French writes the decimal comma in rates too ("8,1 %"); de-CH, it-CH and English the point.
  const percent = (rate: string) => `${lang === 'fr' ? vatRateToPercent(rate).replace('.', ',') : vatRateToPercent(rate)} %`;

  creditorHeader(doc, creditor, lang);

  // Debtor address (window position of a C5 envelope, right).
  doc.fontSize(10).text(invoice.company.name, 330, 110, { width: 215 });
  for (const line of addressLines({ ...invoice.address, countryId: invoice.address.country.id }, lang)) doc.text(line, { width: 215 });

  // Title and facts.
  doc.font(FONT_BOLD).fontSize(16).text(title, MARGIN, 180);
  doc.font(FONT).fontSize(9);
  const facts: [string, string][] = quote ? [[t.date, formatDate(invoice.dateInvoice)], [QUOTE_TEXTS[lang].valid, formatDate(quote.validUntil)]] : [
    [t.date, formatDate(invoice.dateInvoice)],
    [t.due, `${formatDate(invoice.dateDue)}  (${t.terms.replace('{days}', String(invoice.paymentTermDays))})`],
    [t.reference, invoice.paymentReference.startsWith('RF') ? formatCreditorReference(invoice.paymentReference) : formatQrReference(invoice.paymentReference)],
  ];
  let y = 205;
  for (const [label, value] of facts) {
    doc.text(label, MARGIN, y, { width: 100 });
    doc.text(value, 150, y, { width: RIGHT - 150 });
    y += 12;
  }
  if (invoice.description) {
    doc.text(invoice.description, MARGIN, y + 4, { width: RIGHT - MARGIN });
    y = doc.y;
  }

  // Line table. Every row checks the space it needs plus a "carried forward" row.
  let running = toMoney(0);
  const tableHeader = () => {
    y += 16;
    doc.font(FONT_BOLD);
    doc.text(t.item, COLS.item, y, { lineBreak: false });
    right(t.qty, COLS.qty, 45, y);
    right(t.price, COLS.price, 65, y);
    right(t.discount, COLS.discount, 55, y);
    right(`${t.total} ${invoice.currency}`, COLS.total, 75, y);
    y += 14;
    doc.moveTo(MARGIN, y - 2).lineTo(RIGHT, y - 2).lineWidth(0.5).stroke();
    doc.font(FONT);
  };
  const subtotalRow = (label: string) => {
    doc.font(FONT_BOLD);
    doc.text(label, COLS.item, y, { lineBreak: false });
    right(money(running.toFixed(2)), COLS.total, 75, y);
    doc.font(FONT);
    y += 14;
  };
  const continueOnNewPage = () => {
    doc.moveTo(MARGIN, y).lineTo(RIGHT, y).stroke();
    y += 4;
    subtotalRow(t.carried);
    doc.addPage();
    y = MARGIN - 16;
    tableHeader();
    subtotalRow(t.brought);
  };
  const vatLines = invoice.totals.vatLines;
  const foreign = invoice.currency !== invoice.baseCurrency;
  const totalRows: [string, string, boolean][] = [
    [t.net, money(invoice.totals.net), false],
    ...vatLines
      .filter((line) => vatLines.length === 1 || !toMoney(line.base).isZero())
      .map((line): [string, string, boolean] => [`${t.vat} ${percent(line.rate)}`, money(line.vat), false]),
    ...(invoice.totals.rounding !== '0.00' ? ([[t.rounding, money(invoice.totals.rounding), false]] as [string, string, boolean][]) : []),
    [`${quote ? 'Total' : t.due_total} ${invoice.currency}`, money(invoice.totals.total), true],
  ];
  const summaryRows = vatLines.length + 1 + (foreign ? 1 : 0);
  const totalsHeight = 6 + totalRows.length * TOTAL_ROW + 10 + summaryRows * LINE_HEIGHT;
  tableHeader();
  invoice.items.forEach((item, index) => {
    const rowHeight = Math.max(doc.heightOfString(item.name, { width: 235 }), LINE_HEIGHT) + ROW_GAP;
    const isLast = index === invoice.items.length - 1;
    // The last line goes along with the totals when they would not fit after it, so the totals
    // never stand on a page without a line; other lines need room for the carried-forward row.
    const needed = isLast && index > 0 ? rowHeight + totalsHeight : rowHeight + 4 + 14;
    if (y + needed > PAGE_END && y > MARGIN + 30 + 14) continueOnNewPage();
    doc.text(item.name, COLS.item, y, { width: 235 });
    right(item.amount, COLS.qty, 45, y);
    right(money(item.price), COLS.price, 65, y);
    right(item.discount ? `${item.discount} %` : item.discountAbs ? money(item.discountAbs) : '', COLS.discount, 55, y);
    right(money(item.total), COLS.total, 75, y);
    running = running.plus(toMoney(item.total));
    y += rowHeight;
  });

  // Totals and VAT summary, kept together: when they do not fit, the table continues on a new page.
  if (y + totalsHeight > PAGE_END) continueOnNewPage();
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).stroke();
  y += 6;
  for (const [label, value, bold] of totalRows) {
    doc.font(bold ? FONT_BOLD : FONT);
    doc.text(label, 300, y, { width: 170, lineBreak: false });
    right(value, COLS.total, 75, y);
    y += TOTAL_ROW;
  }
  y += 10;
  doc.font(FONT).fontSize(8);
  doc.text(`${t.summary}`, MARGIN, y, { lineBreak: false });
  right(t.base, 180, 80, y);
  right(t.vat, 260, 80, y);
  y += LINE_HEIGHT;
  for (const line of vatLines) {
    doc.text(`${t.rate} ${percent(line.rate)}`, MARGIN, y, { lineBreak: false });
    right(money(line.base), 180, 80, y);
    right(money(line.vat), 260, 80, y);
    y += LINE_HEIGHT;
  }
  if (foreign) {
    // A foreign-currency invoice states the rate it is booked at (the VAT in the books' currency follows from it).
    doc.text(`${t.fx}: 1 ${invoice.currency} = ${invoice.fxRate} ${invoice.baseCurrency} · ${t.vat} ${invoice.baseCurrency} ${money(toBaseAmount(invoice.totals.vat, invoice.fxRate))}`, MARGIN, y, {
      lineBreak: false,
    });
    y += LINE_HEIGHT;
  }
  doc.fontSize(9);

  // The payment part sits at the bottom of this page when the content ends above it (SIX style
  // guide), otherwise at the bottom of a page of its own.
  if (qr) {
    const { SwissQRBill } = await import('swissqrbill/pdf');
    const qrTop = doc.page.height - SwissQRBill.height;
    if (y + 10 > qrTop) doc.addPage();
    doc.y = qrTop;
    (await paymentPart(doc, qr, lang)).attachTo(doc, 0, qrTop);
  }

  // "Page n/m" at the top right of every page, once the count is known.
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    doc.font(FONT).fontSize(8).text(`${t.page} ${index - start + 1}/${count}`, RIGHT - 100, 25, { width: 100, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}
