/**
 * Credit note PDF (issue 15 §2, decision 027): A4 with the creditor, the customer's address, the
 * number (GS-…), the invoice it reduces, the credited lines, totals and VAT per rate. No payment
 * part: a credit note asks for no payment (it lowers what is open, and no money is owed back —
 * a credit note never exceeds the open amount).
 */
import { DOCUMENT_LOCALES, formatAmountLocale, formatDate, vatRateToPercent } from '@bilan/domain';
import { collect, FONT, FONT_BOLD, newDocument } from '../../lib/pdf.js';
import type { CreditNote } from './credit-notes.service.js';
import { addressLines, creditorHeader, type Creditor, type PdfLang } from './invoicing.pdf.js';
import type { Invoice } from './documents.service.js';

const TEXTS: Record<PdfLang, Record<'title' | 'date' | 'invoice' | 'of' | 'reason' | 'item' | 'qty' | 'total' | 'net' | 'vat' | 'rounding' | 'credited' | 'note', string>> = {
  en: { title: 'Credit note', date: 'Date', invoice: 'Invoice', of: 'of', reason: 'Reason', item: 'Description', qty: 'Qty', total: 'Amount', net: 'Subtotal', vat: 'VAT', rounding: 'Rounding', credited: 'Total credited', note: 'This amount is deducted from the open amount of the invoice. No payment is due for this credit note.' },
  de: { title: 'Gutschrift', date: 'Datum', invoice: 'Rechnung', of: 'vom', reason: 'Grund', item: 'Beschreibung', qty: 'Menge', total: 'Betrag', net: 'Zwischensumme', vat: 'MWST', rounding: 'Rundung', credited: 'Total Gutschrift', note: 'Dieser Betrag wird vom offenen Betrag der Rechnung abgezogen. Für diese Gutschrift ist keine Zahlung fällig.' },
  fr: { title: 'Note de crédit', date: 'Date', invoice: 'Facture', of: 'du', reason: 'Motif', item: 'Désignation', qty: 'Qté', total: 'Montant', net: 'Sous-total', vat: 'TVA', rounding: 'Arrondi', credited: 'Total crédité', note: 'Ce montant est déduit du montant ouvert de la facture. Aucun paiement n’est dû pour cette note de crédit.' },
  it: { title: 'Nota di credito', date: 'Data', invoice: 'Fattura', of: 'del', reason: 'Motivo', item: 'Descrizione', qty: 'Qtà', total: 'Importo', net: 'Subtotale', vat: 'IVA', rounding: 'Arrotondamento', credited: 'Totale accreditato', note: 'Questo importo è dedotto dall’importo aperto della fattura. Per questa nota di credito non è dovuto alcun pagamento.' },
};

const MARGIN = 50;
const RIGHT = 545;

/** The credit note as a PDF (A4, no QR-bill). */
export async function renderCreditNotePdf(note: CreditNote, invoice: Invoice, creditor: Creditor, lang: PdfLang): Promise<Buffer> {
  const t = TEXTS[lang];
  const money = (value: string) => formatAmountLocale(value, DOCUMENT_LOCALES[lang]);
  const percent = (rate: string) => `${lang === 'fr' ? vatRateToPercent(rate).replace('.', ',') : vatRateToPercent(rate)} %`;
  const doc = await newDocument('A4', MARGIN);
  doc.info.Title = `${t.title} ${note.number}`;
  const done = collect(doc);
  const right = (text: string, x: number, width: number, y: number) => doc.text(text, x, y, { width, align: 'right', lineBreak: false });

  creditorHeader(doc, creditor, lang);
  doc.fontSize(10).text(invoice.company.name, 330, 110, { width: 215 });
  for (const line of addressLines({ ...invoice.address, countryId: invoice.address.country.id }, lang)) doc.text(line, { width: 215 });

  doc.font(FONT_BOLD).fontSize(16).text(`${t.title} ${note.number}`, MARGIN, 180);
  doc.font(FONT).fontSize(9);
  let y = 205;
  const facts: [string, string][] = [
    [t.date, formatDate(note.date)],
    [t.invoice, `${invoice.refNumber} ${t.of} ${formatDate(invoice.dateInvoice)}`],
    ...(note.reason ? ([[t.reason, note.reason]] as [string, string][]) : []),
  ];
  for (const [label, value] of facts) {
    doc.text(label, MARGIN, y, { width: 100 });
    doc.text(value, 150, y, { width: RIGHT - 150 });
    y = Math.max(y + 12, doc.y);
  }
  y += 16;
  doc.font(FONT_BOLD);
  doc.text(t.item, MARGIN, y, { lineBreak: false });
  right(t.qty, 340, 60, y);
  right(`${t.total} ${note.currency}`, 440, 105, y);
  y += 14;
  doc.moveTo(MARGIN, y - 2).lineTo(RIGHT, y - 2).lineWidth(0.5).stroke();
  doc.font(FONT);
  for (const line of note.lines) {
    if (y > 700) {
      doc.addPage();
      y = MARGIN;
    }
    doc.text(line.name, MARGIN, y, { width: 280 });
    right(line.quantity ?? '', 340, 60, y);
    right(money(line.amount), 440, 105, y);
    y = Math.max(y + 14, doc.y + 2);
  }
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).stroke();
  y += 6;
  const rows: [string, string, boolean][] = [
    [t.net, money(note.totals.net), false],
    ...note.totals.vatLines.map((line): [string, string, boolean] => [`${t.vat} ${percent(line.rate)} (${money(line.base)})`, money(line.vat), false]),
    ...(note.totals.rounding !== '0.00' ? ([[t.rounding, money(note.totals.rounding), false]] as [string, string, boolean][]) : []),
    [`${t.credited} ${note.currency}`, money(note.totals.total), true],
  ];
  for (const [label, value, bold] of rows) {
    doc.font(bold ? FONT_BOLD : FONT);
    doc.text(label, 300, y, { width: 140, lineBreak: false });
    right(value, 440, 105, y);
    y += 14;
  }
  doc.font(FONT).fontSize(9).text(t.note, MARGIN, y + 16, { width: RIGHT - MARGIN });
  doc.end();
  return done;
}
