/**
 * Finds a Swiss QR-bill in an inbox file (issue #5 §2): PDF pages are rendered with pdf.js (its
 * worker is a bundled asset, so CSP script-src 'self' holds; eval stays off), images are drawn as
 * they are; each bitmap is scanned with ZXing-C++ (zxing-wasm, decision 010), which finds every QR
 * code of a page, also rotated or photographed, and the first one whose payload is a QR-bill (SPC,
 * SIX IG v2.3 §4, parseQrBillPayload) wins — a page may carry other QR codes (a shop's web
 * address, a TWINT code). Returns null when no page carries a QR-bill.
 */
import { parseQrBillPayload, type ParsedQrBill } from '@bilan/domain';

/** Pages rendered at most: a QR-bill is the last part of a bill, rarely beyond page 3. */
const MAX_PAGES = 5;
/** 3 × 72 dpi: the 46 mm Swiss QR code then spans ~390 px. */
const SCALE = 3;
/** Photos are scanned at most this wide/high; phone photos of 4000 px gain nothing but time. */
const MAX_IMAGE_SIDE = 2400;

/** ZXing's reader, its WebAssembly served from our own origin (never a CDN: CSP connect-src 'self'). */
async function reader() {
  const [zxing, wasm] = await Promise.all([import('zxing-wasm/reader'), import('zxing-wasm/reader/zxing_reader.wasm?url')]);
  zxing.prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasm.default : prefix + path) } });
  return zxing;
}

/** The QR-bill among the QR payloads of one bitmap (UTF-8, IG v2.3 §4.1.1), or null. */
export function pickQrBill(payloads: readonly Uint8Array[]): ParsedQrBill | null {
  for (const bytes of payloads) {
    const text = new TextDecoder('utf-8').decode(bytes);
    if (!text.replace(/^\uFEFF/, '').startsWith('SPC')) continue;
    const parsed = parseQrBillPayload(text);
    if (parsed.ok) return parsed.bill;
  }
  return null;
}

async function scan(canvas: HTMLCanvasElement): Promise<ParsedQrBill | null> {
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  const { readBarcodes } = await reader();
  const results = await readBarcodes(image, { formats: ['QRCode'], tryHarder: true, tryRotate: true, tryDownscale: true, maxNumberOfSymbols: 8 });
  return pickQrBill(results.filter((result) => result.isValid).map((result) => result.bytes));
}

async function fromPdf(blob: Blob): Promise<ParsedQrBill | null> {
  const pdfjs = await import('pdfjs-dist');
  const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url');
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  const document = await pdfjs.getDocument({ data: new Uint8Array(await blob.arrayBuffer()), isEvalSupported: false }).promise;
  try {
    for (let number = 1; number <= Math.min(document.numPages, MAX_PAGES); number++) {
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: SCALE });
      const canvas = window.document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      await page.render({ canvas, viewport, background: 'white' }).promise;
      const found = await scan(canvas);
      if (found) return found;
    }
    return null;
  } finally {
    await document.destroy();
  }
}

async function fromImage(blob: Blob): Promise<ParsedQrBill | null> {
  const bitmap = await createImageBitmap(blob);
  const factor = Math.min(1, MAX_IMAGE_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = window.document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * factor);
  canvas.height = Math.round(bitmap.height * factor);
  const context = canvas.getContext('2d');
  // Transparent areas of a PNG would read as black and swallow the code's quiet zone: paint white first.
  if (context) {
    context.fillStyle = 'white';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  }
  bitmap.close();
  return scan(canvas);
}

/** The QR-bill of a PDF or image file, or null (other types, no code, not an SPC payload). */
export async function readQrBill(blob: Blob, mimeType: string): Promise<ParsedQrBill | null> {
  if (mimeType === 'application/pdf') return fromPdf(blob);
  if (mimeType.startsWith('image/')) return fromImage(blob);
  return null;
}
