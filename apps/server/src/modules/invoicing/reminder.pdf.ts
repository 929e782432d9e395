/**
 * Reminder letter PDF (Zahlungserinnerung / Mahnung, issue 15 §3, decision 030): A4 with the
 * creditor, the customer's address, the reminder's title and text (the dunning module fills them
 * from the instance's level texts), a statement of what is open (invoice, paid and credited, fees
 * and interest) and the invoice's QR-bill for the amount due = open amount + this reminder's fee and
 * interest. The QR-bill keeps the invoice's reference, so the payment is matched to the invoice; its
 * Swico S1 billing information names the invoice (number, date, UID) without the VAT details (/32/),
 * which describe the invoice's total and would not correspond to the amount due (IG v2.3 Annex D).
 */
import { DOCUMENT_LOCALES, encodeSwicoS1, formatAmountLocale, formatDate, formatReferenceNumber, swissUid } from '@bilan/domain';
import { collect, FONT, FONT_BOLD, newDocument } from '../../lib/pdf.js';
import type { Invoice } from './documents.service.js';
import { addressLines, creditorHeader, paymentPart, qrBillData, toSwissQrBill, type Creditor, type PdfLang } from './invoicing.pdf.js';

export interface ReminderLetter {
  /** The letter's date, YYYY-MM-DD. */
  date: string;
  /** e.g. '1. Mahnung'. */
  title: string;
  /** The letter's text, placeholders filled; paragraphs separated by blank lines. */
  body: string;
  /** Statement rows: label and amount (invoice currency, 2 decimals). */
  rows: { label: string; amount: string }[];
  /** The QR-bill amount: open amount + fee + interest. */
  amountDue: string;
}

const TEXTS: Record<PdfLang, Record<'date' | 'invoice' | 'of' | 'due' | 'total', string>> = {
  en: { date: 'Date', invoice: 'Invoice', of: 'of', due: 'due on', total: 'Amount due' },
  de: { date: 'Datum', invoice: 'Rechnung', of: 'vom', due: 'fällig am', total: 'Zu bezahlen' },
  fr: { date: 'Date', invoice: 'Facture', of: 'du', due: 'échue le', total: 'Montant dû' },
  it: { date: 'Data', invoice: 'Fattura', of: 'del', due: 'scaduta il', total: 'Importo dovuto' },
};

const MARGIN = 50;
const RIGHT = 545;

/** Renders the reminder letter with its QR-bill; 400 (`qrBill.*`) when the QR-bill data is invalid. */
export async function renderReminderLetterPdf(invoice: Invoice, creditor: Creditor, lang: PdfLang, letter: ReminderLetter): Promise<Buffer> {
  const t = TEXTS[lang];
  const money = (value: string) => formatAmountLocale(value, DOCUMENT_LOCALES[lang]);
  const billInformation = encodeSwicoS1({
    invoiceNumber: formatReferenceNumber(invoice.id),
    invoiceDate: invoice.dateInvoice,
    uid: swissUid(creditor.uid) ?? swissUid(creditor.vat_number),
  });
  const data = qrBillData(invoice, creditor);
  const qr = toSwissQrBill({
    ...data,
    amount: letter.amountDue,
    billInformation,
    message: (letter.title.includes(formatReferenceNumber(invoice.id)) ? letter.title : `${letter.title} ${formatReferenceNumber(invoice.id)}`).slice(0, 140 - billInformation.length),
  });

  const doc = await newDocument('A4', MARGIN);
  doc.info.Title = `${letter.title} ${formatReferenceNumber(invoice.id)}`;
  const done = collect(doc);
  const right = (text: string, x: number, width: number, y: number) => doc.text(text, x, y, { width, align: 'right', lineBreak: false });

  creditorHeader(doc, creditor, lang);
  doc.fontSize(10).text(invoice.company.name, 330, 110, { width: 215 });
  for (const line of addressLines({ ...invoice.address, countryId: invoice.address.country.id }, lang)) doc.text(line, { width: 215 });

  doc.font(FONT_BOLD).fontSize(16).text(`${letter.title}`, MARGIN, 180, { width: RIGHT - MARGIN });
  doc.font(FONT).fontSize(9);
  let y = doc.y + 6;
  doc.text(`${t.date}: ${formatDate(letter.date)}`, MARGIN, y);
  doc.text(`${t.invoice} ${formatReferenceNumber(invoice.id)} ${t.of} ${formatDate(invoice.dateInvoice)}, ${t.due} ${formatDate(invoice.dateDue)}`, MARGIN, doc.y);
  y = doc.y + 14;
  doc.fontSize(10).text(letter.body, MARGIN, y, { width: RIGHT - MARGIN, lineGap: 2 });
  y = doc.y + 16;

  doc.fontSize(9);
  for (const row of letter.rows) {
    doc.text(row.label, 300, y, { width: 170, lineBreak: false });
    right(money(row.amount), 470, 75, y);
    y += 13;
  }
  doc.moveTo(300, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  y += 4;
  doc.font(FONT_BOLD);
  doc.text(`${t.total} ${invoice.currency}`, 300, y, { width: 170, lineBreak: false });
  right(money(letter.amountDue), 470, 75, y);
  doc.font(FONT);
  y += 16;

  // The payment part at the bottom of the page (SIX style guide), or of a page of its own.
  const { SwissQRBill } = await import('swissqrbill/pdf');
  const qrTop = doc.page.height - SwissQRBill.height;
  if (y + 10 > qrTop) doc.addPage();
  doc.y = qrTop;
  (await paymentPart(doc, qr, lang)).attachTo(doc, 0, qrTop);
  doc.end();
  return done;
}
