/**
 * Finds a Swiss QR-bill in an inbox file (issue #5 §2): PDF pages are rendered with pdf.js (its
 * worker is a bundled asset, so CSP script-src 'self' holds; eval stays off), images are drawn
 * as they are; each bitmap is scanned with jsQR and the first SPC payload is parsed
 * (SIX IG v2.3 §4, parseQrBillPayload). Returns null when no page carries a QR-bill.
 */
import jsQR from 'jsqr';
import { parseQrBillPayload, type ParsedQrBill } from '@bilan/domain';

/** Pages rendered at most: a QR-bill is the last part of a bill, rarely beyond page 3. */
const MAX_PAGES = 5;
/** 3 × 72 dpi: the 46 mm Swiss QR code then spans ~390 px, plenty for jsQR. */
const SCALE = 3;

function scan(canvas: HTMLCanvasElement): ParsedQrBill | null {
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  const code = jsQR(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' });
  if (!code) return null;
  // The payload is UTF-8 (IG v2.3 §4.1.1); jsQR's `data` guesses the charset, bytes do not.
  const parsed = parseQrBillPayload(new TextDecoder('utf-8').decode(new Uint8Array(code.binaryData)));
  return parsed.ok ? parsed.bill : null;
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
      const found = scan(canvas);
      if (found) return found;
    }
    return null;
  } finally {
    await document.destroy();
  }
}

async function fromImage(blob: Blob): Promise<ParsedQrBill | null> {
  const bitmap = await createImageBitmap(blob);
  const canvas = window.document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return scan(canvas);
}

/** The QR-bill of a PDF or image file, or null (other types, no code, not an SPC payload). */
export async function readQrBill(blob: Blob, mimeType: string): Promise<ParsedQrBill | null> {
  if (mimeType === 'application/pdf') return fromPdf(blob);
  if (mimeType.startsWith('image/')) return fromImage(blob);
  return null;
}
