/**
 * Invoice PDF (spec §7.1 `/invoice/pdf {lang, uuid, onlyReceipt}`, issue #4 §4): A4 with header,
 * addresses, lines, VAT summary and totals, and the Swiss QR-bill payment part with receipt at the
 * bottom (or on its own page). `onlyReceipt` renders the payment part alone (A6/5 landscape slip).
 * Data is checked with @bilan/domain's validateQrBill first (SIX IG v2.3 rules swissqrbill skips).
 * Font: DejaVu Sans (shipped in apps/server/assets/fonts, Bitstream Vera licence), which draws every
 * character of the SPS 2025 set (Latin-1, Latin Extended-A, Ș ș Ț ț, €).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { SwissQRBill } from 'swissqrbill/pdf';
import type { Data as QrData, FontName } from 'swissqrbill/types';
import { countryIsoCode, formatAmount, formatCreditorReference, formatQrReference, formatDate, formatReferenceNumber, validateQrBill, vatRateToPercent, type CountryId, type QrBillData } from '@bilan/domain';
import { AppError } from '../../http/errors.js';
import type { Invoice } from './invoicing.service.js';

const FONT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../assets/fonts');
const FONT = 'DejaVu';
// Read once per process: pdfkit parses a font per document, but the 700 KB files need not be re-read.
const fonts = { regular: readFileSync(join(FONT_DIR, 'DejaVuSans.ttf')), bold: readFileSync(join(FONT_DIR, 'DejaVuSans-Bold.ttf')) };
const FONT_BOLD = 'DejaVu-Bold';

export type PdfLang = 'en' | 'de' | 'fr' | 'it';

type TextKey = 'invoice' | 'date' | 'due' | 'number' | 'reference' | 'item' | 'qty' | 'price' | 'discount' | 'total' | 'net' | 'vat' | 'rounding' | 'due_total' | 'vatNo' | 'summary' | 'rate' | 'base';
const TEXTS: Record<PdfLang, Record<TextKey, string>> = {
  en: {
    invoice: 'Invoice', date: 'Date', due: 'Due date', number: 'Invoice no.', reference: 'Reference', item: 'Description',
    qty: 'Qty', price: 'Price', discount: 'Discount', total: 'Total', net: 'Subtotal', vat: 'VAT', rounding: 'Rounding',
    due_total: 'Total due', vatNo: 'VAT no.', summary: 'VAT summary', rate: 'Rate', base: 'Base',
  },
  de: {
    invoice: 'Rechnung', date: 'Datum', due: 'Fällig am', number: 'Rechnungsnr.', reference: 'Referenz', item: 'Beschreibung',
    qty: 'Menge', price: 'Preis', discount: 'Rabatt', total: 'Betrag', net: 'Zwischensumme', vat: 'MWST', rounding: 'Rundung',
    due_total: 'Total fällig', vatNo: 'MWST-Nr.', summary: 'MWST-Übersicht', rate: 'Satz', base: 'Basis',
  },
  fr: {
    invoice: 'Facture', date: 'Date', due: 'Échéance', number: 'Facture n°', reference: 'Référence', item: 'Désignation',
    qty: 'Qté', price: 'Prix', discount: 'Rabais', total: 'Montant', net: 'Sous-total', vat: 'TVA', rounding: 'Arrondi',
    due_total: 'Total dû', vatNo: 'N° TVA', summary: 'Récapitulatif TVA', rate: 'Taux', base: 'Base',
  },
  it: {
    invoice: 'Fattura', date: 'Data', due: 'Scadenza', number: 'Fattura n.', reference: 'Riferimento', item: 'Descrizione',
    qty: 'Qtà', price: 'Prezzo', discount: 'Sconto', total: 'Importo', net: 'Subtotale', vat: 'IVA', rounding: 'Arrotondamento',
    due_total: 'Totale dovuto', vatNo: 'N. IVA', summary: 'Riepilogo IVA', rate: 'Aliquota', base: 'Base',
  },
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
}

const iso = (countryId: number | null) => (countryId ? (countryIsoCode[countryId as CountryId] ?? 'CH') : 'CH');

/** The QR-bill data of an invoice (structured addresses, type S), validated (400 `qrBill.*` otherwise). */
export function qrBillData(invoice: Invoice, creditor: Creditor): QrBillData {
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
    message: `${formatReferenceNumber(invoice.id)}${invoice.description ? ` ${invoice.description}` : ''}`.slice(0, 140),
  };
  const fields = validateQrBill(data);
  const [first] = Object.entries(fields);
  if (first) {
    throw new AppError(
      'validation',
      `the QR-bill cannot be made: ${first[0]}: ${first[1]}`,
      Object.fromEntries(Object.entries(fields).map(([key, value]) => [`qrBill.${key}`, value])),
    );
  }
  return data;
}

function toSwissQrBill(data: QrBillData): QrData {
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
  };
}

/** Renders the invoice PDF; resolves to the file's bytes. */
export function renderInvoicePdf(invoice: Invoice, creditor: Creditor, lang: PdfLang, onlyReceipt: boolean): Promise<Buffer> {
  const qr = toSwissQrBill(qrBillData(invoice, creditor));
  const t = TEXTS[lang];
  const doc = onlyReceipt
    ? new PDFDocument({ size: [SwissQRBill.width, SwissQRBill.height], margin: 0, autoFirstPage: true, compress: true })
    : new PDFDocument({ size: 'A4', margin: 50, compress: true });
  doc.registerFont(FONT, fonts.regular);
  doc.registerFont(FONT_BOLD, fonts.bold);
  doc.info.Title = `${t.invoice} ${formatReferenceNumber(invoice.id)}`;
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const bill = new SwissQRBill(qr, { language: lang.toUpperCase() as 'EN', fontName: FONT as FontName });
  if (onlyReceipt) {
    bill.attachTo(doc, 0, 0);
    doc.end();
    return done;
  }

  // Header: creditor.
  doc.font(FONT_BOLD).fontSize(14).text(creditor.name, 50, 40);
  doc.font(FONT).fontSize(9);
  const creditorLines = [
    [creditor.street, creditor.house_number].filter(Boolean).join(' '),
    [creditor.zip, creditor.city].filter(Boolean).join(' '),
    creditor.vat_number ? `${t.vatNo} ${creditor.vat_number}` : creditor.uid ? `UID ${creditor.uid}` : '',
  ].filter(Boolean);
  for (const line of creditorLines) doc.text(line);

  // Debtor address (window position of a C5 envelope, right).
  doc.fontSize(10).text(invoice.company.name, 330, 110);
  doc.text([invoice.address.street, invoice.address.houseNumber].filter(Boolean).join(' '));
  doc.text(`${iso(invoice.address.country.id)}-${invoice.address.zip} ${invoice.address.city}`);

  // Title and facts.
  doc.font(FONT_BOLD).fontSize(16).text(`${t.invoice} ${formatReferenceNumber(invoice.id)}`, 50, 180);
  doc.font(FONT).fontSize(9);
  const facts: [string, string][] = [
    [t.date, formatDate(invoice.dateInvoice)],
    ...(invoice.dateDue ? ([[t.due, formatDate(invoice.dateDue)]] as [string, string][]) : []),
    [t.reference, invoice.paymentReference.startsWith('RF') ? formatCreditorReference(invoice.paymentReference) : formatQrReference(invoice.paymentReference)],
  ];
  let y = 205;
  for (const [label, value] of facts) {
    doc.text(label, 50, y, { width: 100 });
    doc.text(value, 150, y);
    y += 12;
  }
  if (invoice.description) {
    doc.text(invoice.description, 50, y + 4, { width: 495 });
    y = doc.y;
  }

  // Lines.
  const cols = { item: 50, qty: 290, price: 340, discount: 410, total: 470 };
  const right = (text: string, x: number, width: number, rowY: number) => doc.text(text, x, rowY, { width, align: 'right' });
  y += 16;
  doc.font(FONT_BOLD);
  doc.text(t.item, cols.item, y);
  right(t.qty, cols.qty, 45, y);
  right(t.price, cols.price, 65, y);
  right(t.discount, cols.discount, 55, y);
  right(`${t.total} ${invoice.currency}`, cols.total, 75, y);
  y += 14;
  doc.moveTo(50, y - 2).lineTo(545, y - 2).lineWidth(0.5).stroke();
  doc.font(FONT);
  for (const item of invoice.items) {
    if (y > 760) {
      doc.addPage();
      y = 50;
    }
    doc.text(item.name, cols.item, y, { width: 235 });
    const rowEnd = doc.y;
    right(item.amount, cols.qty, 45, y);
    right(formatAmount(item.price), cols.price, 65, y);
    right(item.discount ? `${item.discount} %` : item.discountAbs ? formatAmount(item.discountAbs) : '', cols.discount, 55, y);
    right(formatAmount(item.total), cols.total, 75, y);
    y = Math.max(rowEnd, y + 11) + 2;
  }
  doc.moveTo(50, y).lineTo(545, y).stroke();
  y += 6;

  // Totals and VAT summary.
  const vatPercent = `${vatRateToPercent(invoice.vat)} %`;
  const totalRows: [string, string, boolean][] = [
    [t.net, formatAmount(invoice.totals.net), false],
    [`${t.vat} ${vatPercent}`, formatAmount(invoice.totals.vat), false],
    ...(invoice.totals.rounding !== '0.00' ? ([[t.rounding, formatAmount(invoice.totals.rounding), false]] as [string, string, boolean][]) : []),
    [`${t.due_total} ${invoice.currency}`, formatAmount(invoice.totals.total), true],
  ];
  for (const [label, value, bold] of totalRows) {
    doc.font(bold ? FONT_BOLD : FONT);
    doc.text(label, 340, y, { width: 130 });
    right(value, cols.total, 75, y);
    y += 13;
  }
  doc.font(FONT).fontSize(8);
  doc.text(`${t.summary}: ${t.rate} ${vatPercent} · ${t.base} ${formatAmount(invoice.totals.net)} · ${t.vat} ${formatAmount(invoice.totals.vat)}`, 50, y + 6);
  // The payment part sits at the bottom of this page when the content ends above it (SIX style
  // guide), otherwise swissqrbill adds its own page.
  const qrTop = doc.page.height - SwissQRBill.height;
  doc.y = y + 20 <= qrTop ? qrTop : y + 20;
  bill.attachTo(doc);
  doc.end();
  return done;
}
