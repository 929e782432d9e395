/**
 * The financial statements as PDF (issue 12 §4): A4 in the look of the invoice PDFs (DejaVu Sans,
 * 50 pt margins, the company's name in bold at the top left with its address, "Page n/m" at the top
 * right), one statement after the other on new pages. Amounts right-aligned in the Swiss format
 * (1'234.50, negatives with a minus), the prior-period column beside the current one. Every row
 * checks the space left before it is drawn: a new page repeats the title and the column headings.
 */
import { collect, FONT, FONT_BOLD, newDocument } from '../../lib/pdf.js';
import type { ExportRow, ExportTable, Letterhead } from './statements.export.js';
import { STATEMENT_TEXTS, type StatementLang } from './statement-structure.js';

const MARGIN = 50;
const RIGHT = 545;
const PAGE_END = 841.89 - MARGIN;
const AMOUNT_WIDTH = 90;
const GAP = 8;

/**
 * Swiss number format of an amount string: apostrophe between thousands, point before the cents,
 * a leading minus for negatives ('-1234.5' → "-1'234.50"). Works on the decimal text, no float.
 */
export function formatSwissAmount(value: string): string {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, "'");
  const text = `${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

interface RowStyle {
  font: string;
  size: number;
  indent: number;
  before: number;
  after: number;
  color: string;
}

const STYLES: Record<ExportRow['kind'], RowStyle> = {
  side: { font: FONT_BOLD, size: 11, indent: 0, before: 10, after: 4, color: '#000000' },
  section: { font: FONT_BOLD, size: 9.5, indent: 0, before: 6, after: 2, color: '#000000' },
  line: { font: FONT, size: 9, indent: 8, before: 1, after: 1, color: '#000000' },
  account: { font: FONT, size: 8, indent: 20, before: 0, after: 1, color: '#555555' },
  total: { font: FONT_BOLD, size: 9, indent: 0, before: 4, after: 4, color: '#000000' },
  grandTotal: { font: FONT_BOLD, size: 10, indent: 0, before: 6, after: 6, color: '#000000' },
};

/** Renders the statements (in order, each from a new page); resolves to the file's bytes. */
export async function renderStatementsPdf(tables: readonly ExportTable[], letterhead: Letterhead, lang: StatementLang): Promise<Buffer> {
  const doc = await newDocument('A4', MARGIN);
  doc.info.Title = `${tables.map((table) => table.title).join(', ')} – ${letterhead.name}`;
  doc.info.Creator = 'Bilan';
  const done = collect(doc);
  const right = (text: string, x: number, width: number, rowY: number) => doc.text(text, x, rowY, { width, align: 'right', lineBreak: false });
  let y = MARGIN;

  const header = (table: ExportTable) => {
    doc.fillColor('#000000');
    doc.font(FONT_BOLD).fontSize(14).text(letterhead.name, MARGIN, 40, { width: 330 });
    doc.font(FONT).fontSize(9);
    for (const line of [...letterhead.addressLines, letterhead.uid ? `UID ${letterhead.uid}` : ''].filter(Boolean)) doc.text(line, { width: 330 });
    y = Math.max(doc.y + 24, 110);
    doc.font(FONT_BOLD).fontSize(16).text(table.title, MARGIN, y, { width: RIGHT - MARGIN });
    y = doc.y + 2;
    doc.font(FONT).fontSize(9).text(`${STATEMENT_TEXTS.currency[lang]}: ${table.currency}`, MARGIN, y);
    y = doc.y + 12;
    // Column headings: the date or period of each amount column (a period wraps after its dash).
    doc.font(FONT_BOLD).fontSize(8.5);
    const headingHeight = Math.max(...table.columns.map((column) => doc.heightOfString(column, { width: AMOUNT_WIDTH })));
    table.columns.forEach((column, index) => doc.text(column, amountX(table, index), y, { width: AMOUNT_WIDTH, align: 'right' }));
    y += headingHeight + 3;
    doc.moveTo(MARGIN, y - 2).lineTo(RIGHT, y - 2).lineWidth(0.5).stroke();
    y += 2;
  };

  tables.forEach((table, tableIndex) => {
    if (tableIndex > 0) doc.addPage();
    header(table);
    const labelWidth = amountX(table, 0) - GAP - MARGIN;
    for (const row of table.rows) {
      const style = STYLES[row.kind];
      const label = row.kind === 'account' && row.number ? `${row.number}  ${row.label}` : row.label;
      doc.font(style.font).fontSize(style.size);
      const height = doc.heightOfString(label, { width: labelWidth - style.indent }) + style.before + style.after;
      if (y + height + 6 > PAGE_END) {
        doc.addPage();
        header(table);
      }
      y += style.before;
      if (row.kind === 'total' || row.kind === 'grandTotal') {
        doc.moveTo(MARGIN, y - 2).lineTo(RIGHT, y - 2).lineWidth(row.kind === 'grandTotal' ? 0.8 : 0.5).stroke();
      }
      doc.fillColor(style.color).font(style.font).fontSize(style.size);
      doc.text(label, MARGIN + style.indent, y, { width: labelWidth - style.indent });
      const labelEnd = doc.y;
      row.amounts.forEach((amount, index) => {
        if (amount !== null) right(formatSwissAmount(amount), amountX(table, index), AMOUNT_WIDTH, y);
      });
      y = Math.max(labelEnd, y + style.size + 2) + style.after;
      if (row.kind === 'grandTotal') {
        doc.moveTo(MARGIN, y - 3).lineTo(RIGHT, y - 3).lineWidth(0.5).stroke();
        doc.moveTo(MARGIN, y - 1).lineTo(RIGHT, y - 1).stroke();
        y += 2;
      }
    }
    doc.fillColor('#000000');
  });

  // "Page n/m" at the top right of every page, once the count is known (as on the invoices).
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    doc.font(FONT).fontSize(8).text(`${STATEMENT_TEXTS.page[lang]} ${index - start + 1}/${count}`, RIGHT - 100, 25, { width: 100, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}

/** Left edge of amount column `index`: the last column ends at the right margin. */
function amountX(table: ExportTable, index: number): number {
  const count = table.columns.length;
  return RIGHT - (count - index) * AMOUNT_WIDTH - (count - index - 1) * GAP;
}
