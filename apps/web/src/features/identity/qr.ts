/** Spec §9: the two-factor QR code is 256 px, error level H, with a margin (library defaults: 128 px, level L). */
export const QR_OPTIONS = { width: 256, errorCorrectionLevel: 'H', margin: 4 } as const;
