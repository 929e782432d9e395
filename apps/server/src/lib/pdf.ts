/**
 * The PDF base shared by every document Bilan prints (invoices, financial statements): DejaVu Sans
 * (apps/server/assets/fonts, Bitstream Vera licence) for the documents, Liberation Sans (SIL OFL
 * 1.1) for the QR-bill payment part and receipt, which the SIX style guide allows in Arial,
 * Frutiger, Helvetica or Liberation Sans only. Both draw every character of the SPS 2025 set
 * (Latin-1, Latin Extended-A, Ș ș Ț ț, €). Fonts are parsed once per process; A4 documents buffer
 * their pages so a "Page n/m" can be written once the count is known. pdfkit and the fonts are
 * loaded with the first document, not at start-up (issue 18 §3: about 0.25 s of every start).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FONT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../assets/fonts');
export const FONT = 'DejaVu';
export const FONT_BOLD = 'DejaVu-Bold';
/** The payment part's font; swissqrbill selects `${QR_FONT}` and `${QR_FONT}-Bold`. */
export const QR_FONT = 'LiberationSans';
// Read once per process, with the first document.
let fontFiles: Record<string, Buffer> | undefined;
const readFonts = (): Record<string, Buffer> => ({
  [FONT]: readFileSync(join(FONT_DIR, 'DejaVuSans.ttf')),
  [FONT_BOLD]: readFileSync(join(FONT_DIR, 'DejaVuSans-Bold.ttf')),
  [QR_FONT]: readFileSync(join(FONT_DIR, 'LiberationSans-Regular.ttf')),
  [`${QR_FONT}-Bold`]: readFileSync(join(FONT_DIR, 'LiberationSans-Bold.ttf')),
});

// ------------------------------------------------------------------------------------------------
// Parsed fonts, shared by every document of the process (issue #4 audit §9).
// pdfkit parses a registered TTF again for every document (fontkit.create) and shapes every word
// again; both cost more than half of a render. The parsed fontkit font and the shaped words do not
// depend on the document (the subset of glyphs a document embeds does, and stays per document), so
// they are kept here. pdfkit 0.17 offers no option for it: this reaches into its font table
// (`_fontFamilies`, `_fontCount`) and, if those ever change shape, falls back to plain registration.
// ------------------------------------------------------------------------------------------------

interface EmbeddedFontLike {
  name: string;
  font: unknown;
  layoutCache?: Record<string, unknown>;
}
interface PdfFontInternals {
  _fontFamilies?: Record<string, EmbeddedFontLike>;
  _fontCount?: number;
}
type EmbeddedFontClass = new (doc: PDFKit.PDFDocument, font: unknown, id: string) => EmbeddedFontLike;

/** Layout caches above this many words are dropped and start again, so memory stays bounded. */
const LAYOUT_CACHE_LIMIT = 20_000;
let parsedFonts: { ctor: EmbeddedFontClass; fonts: Map<string, { font: unknown; layout: Record<string, unknown> }> } | undefined;

function useFonts(doc: PDFKit.PDFDocument): void {
  fontFiles ??= readFonts();
  for (const [name, file] of Object.entries(fontFiles)) doc.registerFont(name, file);
  const internals = doc as unknown as PdfFontInternals;
  if (!internals._fontFamilies || typeof internals._fontCount !== "number") return;
  if (!parsedFonts) {
    // First document: let pdfkit parse both fonts, then keep what it parsed.
    const fonts = new Map<string, { font: unknown; layout: Record<string, unknown> }>();
    let ctor: EmbeddedFontClass | undefined;
    for (const name of Object.keys(fontFiles).reverse()) {
      doc.font(name);
      const embedded = internals._fontFamilies[name];
      if (!embedded?.font || !embedded.layoutCache) return;
      ctor = embedded.constructor as EmbeddedFontClass;
      fonts.set(name, { font: embedded.font, layout: embedded.layoutCache });
    }
    for (const { font } of fonts.values()) keepCodePoints(font);
    parsedFonts = { ctor: ctor!, fonts };
    return;
  }
  for (const [name, cached] of parsedFonts.fonts) {
    if (Object.keys(cached.layout).length > LAYOUT_CACHE_LIMIT) cached.layout = Object.create(null) as Record<string, unknown>;
    internals._fontCount += 1;
    const embedded = new parsedFonts.ctor(doc, cached.font, `F${internals._fontCount}`);
    embedded.layoutCache = cached.layout;
    internals._fontFamilies[name] = embedded;
    internals._fontFamilies[embedded.name] = embedded;
  }
}

/**
 * fontkit keeps one glyph object per glyph id and font, with the characters it was first asked for.
 * The subsetter asks for the components of a composite glyph without characters (É is E and an
 * acute), so once a document printed "Général", a later document sharing the parsed font got an E
 * without characters, and pdfkit wrote no text for it into the ToUnicode map: the PDF showed "CHE-…"
 * but copied or searched as "CH -…". A glyph without characters takes those of the next lookup that
 * has some (the object is shared, so cached layouts are mended with it).
 */
function keepCodePoints(font: unknown): void {
  const target = font as { getGlyph?: (id: number, characters?: number[]) => { codePoints?: number[] } | null };
  const getGlyph = target.getGlyph;
  if (typeof getGlyph !== 'function') return;
  target.getGlyph = function (this: unknown, id: number, characters: number[] = []) {
    const glyph = getGlyph.call(this, id, characters);
    if (glyph && characters.length > 0 && !glyph.codePoints?.length) glyph.codePoints = characters;
    return glyph;
  };
}

/** A document with the fonts registered and DejaVu selected; A4 documents buffer their pages. */
export async function newDocument(size: 'A4' | [number, number], margin: number): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  // `font: null` skips pdfkit's default Helvetica, which would be parsed and never used.
  const doc = new PDFDocument({ size, margin, compress: true, bufferPages: size === 'A4', font: null } as unknown as PDFKit.PDFDocumentOptions);
  useFonts(doc);
  doc.font(FONT);
  return doc;
}

/** The document's bytes once `doc.end()` has been called. */
export function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

