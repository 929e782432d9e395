/**
 * The VAT return as a PDF that mirrors the ESTV form (MWST-Abrechnung, version since 2024) in
 * de/fr/it/en: the head (taxable person, VAT number, period, type of submission, basis), then
 * I. Turnover (200–299), II. Tax calculation (the rate rows with turnover and tax, 399, input tax
 * 400–479 or the net tax rate method's 470, then 500/510) and III. Other cash flows (900/910), each
 * figure with its number and the form's text. A4, DejaVu Sans (lib/pdf.ts), "Page n/m".
 */
import {
  formatAmountLocale,
  formatDate,
  INPUT_TAX_ZIFFERN,
  OTHER_FLOW_ZIFFERN,
  TURNOVER_ZIFFERN,
  VAT_FIGURE_LABELS,
  VAT_FORM_TEXTS,
  vatTaxLineLabel,
  type VatBasis,
  type VatFigures,
  type VatLanguage,
  type VatSubmissionTypeId,
} from '@bilan/domain';
import { collect, FONT, FONT_BOLD, newDocument } from '../../lib/pdf.js';

export interface VatReturnPdfInput {
  organisation: { name: string; address: string[] };
  vatNumber: string;
  dateFrom: string;
  dateTo: string;
  label: string;
  typeOfSubmission: VatSubmissionTypeId;
  basis: VatBasis;
  figures: VatFigures;
  generatedAt: Date;
  /** The filed return's number and date, when it is one. */
  filed?: { id: number; filedAt: string } | null;
}

/**
 * Amounts as the form's language writes them (DESIGN.md: Intl per locale — de-CH and it-CH
 * 1’234.50, fr-CH 1 234,50; English as de-CH), exact (the decimal string goes to Intl), a
 * correction's negative amounts with a minus.
 */
const LOCALES: Record<VatLanguage, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'de-CH' };
export const formatVatAmount = (value: string, lang: VatLanguage): string => formatAmountLocale(value, LOCALES[lang]);

const MARGIN = 50;
const RIGHT = 545;
const PAGE_END = 841.89 - MARGIN;
const COL = { ziffer: MARGIN, label: 80, base: 405, tax: 475 } as const;
const AMOUNT_WIDTH = 70;
const LABEL_WIDTH = COL.base - COL.label - 10;

/** Renders the return; resolves to the PDF's bytes. */
export async function renderVatReturnPdf(input: VatReturnPdfInput, lang: VatLanguage): Promise<Buffer> {
  const t = VAT_FORM_TEXTS[lang];
  const labels = VAT_FIGURE_LABELS[lang];
  const f = input.figures.figures;
  const doc = await newDocument('A4', MARGIN);
  doc.info.Title = `${t.title[input.figures.method]} ${input.label}`;
  const done = collect(doc);
  const amountAt = (value: string, x: number, y: number, bold = false) => {
    doc.font(bold ? FONT_BOLD : FONT).text(formatVatAmount(value, lang), x, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
  };

  // Head: title, taxable person, facts.
  doc.font(FONT_BOLD).fontSize(15).text(t.title[input.figures.method], MARGIN, 40, { width: RIGHT - MARGIN });
  doc.font(FONT).fontSize(9).moveDown(0.4);
  doc.font(FONT_BOLD).text(input.organisation.name, { width: 280 });
  doc.font(FONT);
  for (const line of input.organisation.address) doc.text(line, { width: 280 });
  const headTop = 70;
  const facts: [string, string][] = [
    [t.vatNumber, input.vatNumber],
    [t.period, `${formatDate(input.dateFrom)} – ${formatDate(input.dateTo)} (${input.label})`],
    ['', t.submission[input.typeOfSubmission]],
    ['', t.basis[input.basis]],
  ];
  let factY = headTop;
  for (const [label, value] of facts) {
    if (label) doc.text(label, 300, factY, { width: 55, lineBreak: false });
    doc.text(value, 355, factY, { width: RIGHT - 355 });
    factY = doc.y + 1;
  }
  let y = Math.max(doc.y, factY) + 18;

  const ensure = (height: number) => {
    if (y + height > PAGE_END) {
      doc.addPage();
      y = MARGIN;
    }
  };
  const section = (title: string, columns?: [string, string]) => {
    ensure(40);
    y += 6;
    doc.rect(MARGIN, y - 3, RIGHT - MARGIN, 16).fill('#eef2f6');
    doc.fillColor('#000').font(FONT_BOLD).fontSize(10).text(title, MARGIN + 4, y, { lineBreak: false });
    if (columns) {
      doc.fontSize(8);
      // Column heads may be wider than the amounts: right-aligned on the amount's right edge.
      doc.text(columns[0], COL.base - 40, y + 1, { width: AMOUNT_WIDTH + 40, align: 'right', lineBreak: false });
      doc.text(columns[1], COL.tax, y + 1, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    }
    doc.font(FONT).fontSize(8);
    y += 19;
  };
  /** One figure: its number, the form's text (wrapped), and the amount in the turnover or tax column. */
  const row = (ziffer: string, label: string, amounts: { base?: string; tax?: string }, bold = false) => {
    // Measured in the font it is drawn in (a bold label wraps earlier).
    doc.font(bold ? FONT_BOLD : FONT).fontSize(8);
    const height = Math.max(doc.heightOfString(label, { width: LABEL_WIDTH }), 9.5);
    ensure(height + 4);
    doc.text(ziffer, COL.ziffer, y, { width: 30, lineBreak: false });
    doc.text(label, COL.label, y, { width: LABEL_WIDTH });
    if (amounts.base !== undefined) amountAt(amounts.base, COL.base, y, bold);
    if (amounts.tax !== undefined) amountAt(amounts.tax, COL.tax, y, bold);
    y += height + 4;
    doc.moveTo(COL.label, y - 2).lineTo(RIGHT, y - 2).lineWidth(0.3).strokeColor('#c8cdd3').stroke().strokeColor('#000');
  };

  section(t.sections.turnover, [t.turnover, '']);
  for (const ziffer of TURNOVER_ZIFFERN) row(ziffer, labels[ziffer]!, { base: f[ziffer] }, ziffer === '289' || ziffer === '299');

  section(t.sections.tax, [t.turnover, t.tax]);
  for (const line of input.figures.taxLines) row(line.ziffer, vatTaxLineLabel(line, lang), { base: line.base, tax: line.tax });
  row('399', labels['399']!, { tax: f['399'] }, true);
  if (input.figures.method === 'effective') {
    for (const ziffer of INPUT_TAX_ZIFFERN) row(ziffer, labels[ziffer]!, { tax: f[ziffer] }, ziffer === '479');
  } else {
    row('470', labels['470']!, { tax: f['470'] });
  }
  row('500', labels['500']!, { tax: f['500'] }, true);
  row('510', labels['510']!, { tax: f['510'] }, true);

  section(t.sections.other, [t.turnover, '']);
  for (const ziffer of OTHER_FLOW_ZIFFERN) row(ziffer, labels[ziffer]!, { base: f[ziffer] });

  // Footer on every page: when it was generated (and filed), "Page n/m".
  const { start, count } = doc.bufferedPageRange();
  const stamp = `${t.generated} ${formatDate(input.generatedAt.toISOString())}${input.filed ? ` · #${input.filed.id} ${formatDate(input.filed.filedAt)}` : ''} · Bilan`;
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    // In the bottom margin: without it pdfkit would start a new page for the footer.
    doc.page.margins.bottom = 0;
    doc.font(FONT).fontSize(7.5).fillColor('#555');
    doc.text(stamp, MARGIN, PAGE_END + 18, { width: 300, lineBreak: false });
    doc.text(`${t.page} ${index - start + 1}/${count}`, RIGHT - 100, PAGE_END + 18, { width: 100, align: 'right', lineBreak: false });
    doc.fillColor('#000');
  }
  doc.end();
  return done;
}
