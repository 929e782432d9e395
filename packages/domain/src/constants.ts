/** Business constants and limits (spec §9). */
export const VERSION = 'v1.0.3' as const;
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ACCESS_TOKEN_REFRESH_MS = 8 * 60 * 1000;
export const MAX_TWO_FACTOR_ATTEMPTS = 5;
export const ACCOUNT_CARD_NAME_MAX = 23;
export const REFERENCE_PREFIX = 'BILAN';
export const REFERENCE_MIN_LENGTH = 6;
export const DEFAULT_VAT_PERCENT = '8.1';
export const DEFAULT_CURRENCY = 'CHF';
export const VAT_PERCENT_MIN = 1;
export const VAT_PERCENT_MAX = 99;
export const FIRST_ONBOARDING_LEDGER_CODE = 1000;
export const COMPANY_PALETTE_MAX = 10;
export const COMPANY_PALETTE_MIN_CHARS = 3;
export const DATE_YEAR_MIN = 1900;
export const DATE_YEAR_MAX = 2300;
export const PASSWORD_MIN_LENGTH = 9;
export const QR_IBAN_IID_MIN = 30000;
export const QR_IBAN_IID_MAX = 31999;
/** Swiss VAT rates in force since 1 January 2024 (MWSTG art. 25): standard, reduced, accommodation. */
export const SWISS_VAT_PERCENTS = ['8.1', '2.6', '3.8', '0'] as const;
