import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_OPTIONS } from './qr';

describe('two-factor QR code', () => {
  it('is 256 px with error level H and a margin (spec §9)', async () => {
    expect(QR_OPTIONS).toEqual({ width: 256, errorCorrectionLevel: 'H', margin: 4 });
    const url = 'otpauth://totp/Bilan:anna%40example.ch?issuer=Bilan&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30';
    const png = Buffer.from((await QRCode.toDataURL(url, QR_OPTIONS)).split(',')[1]!, 'base64');
    // PNG IHDR: width and height at bytes 16–23.
    expect(png.readUInt32BE(16)).toBe(256);
    expect(png.readUInt32BE(20)).toBe(256);
    const level = QRCode.create(url, { errorCorrectionLevel: 'H' }).errorCorrectionLevel;
    expect(level.bit).toBe(2); // H
  });
});
