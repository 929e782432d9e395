/**
 * Enumerations of the product contract (spec §3 "Enumerations", §4). The numeric ids travel on the
 * wire and are stored in the database; never renumber them.
 */

/** Currency ids (spec §3). `decimals` is the number of minor-unit digits used for display. */
export const Currency = {
  CHF: 1, EUR: 2, USD: 3, GBP: 4, USDT: 5, USDC: 6, ETH: 7, BTC: 8, SOL: 9, EURT: 10,
  AED: 11, CAD: 12, AUD: 13, JPY: 14, INR: 15, CNY: 16, BRL: 17, ZCHF: 18,
} as const;
export type CurrencyCode = keyof typeof Currency;
export type CurrencyId = (typeof Currency)[CurrencyCode];
export const currencyCodes = Object.keys(Currency) as CurrencyCode[];
export const currencyCodeById = (id: number): CurrencyCode | undefined =>
  currencyCodes.find((code) => Currency[code] === id);
export const isCurrencyCode = (value: unknown): value is CurrencyCode =>
  typeof value === 'string' && Object.hasOwn(Currency, value);

/** Country ids (spec §3) with their ISO 3166-1 alpha-2 code, needed for QR-bills and pain.001. */
export const Country = {
  Switzerland: 1, USA: 2, UK: 3, UAE: 4, France: 5, Germany: 6, Canada: 7, Australia: 8,
  Japan: 9, Italy: 10, Spain: 11, Brazil: 12, India: 13, China: 14,
} as const;
export type CountryName = keyof typeof Country;
export type CountryId = (typeof Country)[CountryName];
export const countryNames = Object.keys(Country) as CountryName[];
export const countryIsoCode: Record<CountryId, string> = {
  1: 'CH', 2: 'US', 3: 'GB', 4: 'AE', 5: 'FR', 6: 'DE', 7: 'CA', 8: 'AU', 9: 'JP', 10: 'IT',
  11: 'ES', 12: 'BR', 13: 'IN', 14: 'CN',
};
export const countryNameById = (id: number): CountryName | undefined =>
  countryNames.find((name) => Country[name] === id);

export const Lang = { en: 'en' } as const;

/** The UI's languages (issue 17 §3): a user's choice, stored with the profile. */
export const uiLanguages = ['de', 'fr', 'it', 'en'] as const;
export type UiLanguage = (typeof uiLanguages)[number];

/**
 * A user's number format (issue 17 §3): fr-CH '1 234,50' (the spec's default, §9), de-CH and
 * it-CH "1'234.50", en-CH "1'234.50" with English words around it.
 */
export const numberFormats = ['fr-CH', 'de-CH', 'it-CH', 'en-CH'] as const;
export type NumberFormat = (typeof numberFormats)[number];

/** Direction of a posting: +1 debit, -1 credit (spec §3 DebitCredit). */
export const DebitCredit = { debit: 1, credit: -1 } as const;
export type Direction = (typeof DebitCredit)[keyof typeof DebitCredit];

/** What a ledger account is used for by the product's automatic postings (spec §3). */
export const AccountFunctionType = { bankAccount: 1, vat: 2, salesRevenue: 3, payable: 4, receivable: 5 } as const;
export type AccountFunctionTypeId = (typeof AccountFunctionType)[keyof typeof AccountFunctionType];

/** Account class (spec §3 AccountType). */
export const AccountType = { assets: 1, liability: 2, expenses: 3, revenue: 4, equity: 5 } as const;
export type AccountTypeId = (typeof AccountType)[keyof typeof AccountType];
export const accountTypeNames = Object.keys(AccountType) as (keyof typeof AccountType)[];

export const BillType = { payable: 0, expense: 1 } as const;

/** Payment profile kinds (spec §3). 0 means "none" in the forms. */
export const PaymentProfileType = {
  Expense: 0, Iban: 1, QrBill: 2, Ethereum: 3, Solana: 4, Arbitrum: 5, Polygon: 6, Goerli: 7,
  Sepolia: 8, Stripe: 10, Revolut: 11,
} as const;
export type PaymentProfileTypeId = (typeof PaymentProfileType)[keyof typeof PaymentProfileType];
/** Kinds offered by the settings and onboarding forms, in the spec's order (§3). */
export const offeredPaymentProfileTypes = [
  PaymentProfileType.Iban, PaymentProfileType.QrBill, PaymentProfileType.Ethereum, PaymentProfileType.Sepolia,
  PaymentProfileType.Goerli, PaymentProfileType.Arbitrum, PaymentProfileType.Polygon, PaymentProfileType.Solana,
] as const;
/** Public-ledger kinds, whose "iban" field holds a public address (spec §5). */
export const ledgerPaymentProfileTypes: readonly number[] = [
  PaymentProfileType.Ethereum, PaymentProfileType.Solana, PaymentProfileType.Arbitrum, PaymentProfileType.Polygon,
  PaymentProfileType.Goerli, PaymentProfileType.Sepolia,
];

export const AdditionalPropertyType = {
  Text: 1, Email: 2, Phone: 3, Link: 4, Date: 5, Barcode: 6, ReferenceNumber: 7, Amount: 8, InternalLink: 9,
} as const;

export const InvoiceStatus = { pending: 1, sent: 2, paid: 3, denied: 4 } as const;
export const TransactionGroupStatus = { pending: 1, initiated: 4, paid: 2, denied: 3 } as const;
export const MailStatus = { pending: 1, processed: 2, refused: 3 } as const;
export const BankPaymentStatus = { pending: 1, paid: 2, pain002Accp: 3, pain002Rjctd: 4, pain002Part: 5 } as const;
/**
 * Payable status: pending 1 is the spec's (§4); the rest is Bilan's lifecycle (issue #5): approved
 * (booked), in a transaction group, paid, cancelled.
 */
export const PayableStatus = { pending: 1, approved: 2, inTransactionGroup: 3, paid: 4, cancelled: 5 } as const;
export type PayableStatusId = (typeof PayableStatus)[keyof typeof PayableStatus];
export type TransactionGroupStatusId = (typeof TransactionGroupStatus)[keyof typeof TransactionGroupStatus];
export type BankPaymentStatusId = (typeof BankPaymentStatus)[keyof typeof BankPaymentStatus];

/** Staff roles of an instance (issue 3 builds the management; owner exists from sign-up). */
export const Role = { owner: 'owner', admin: 'admin', accountant: 'accountant', viewer: 'viewer' } as const;
export type RoleName = keyof typeof Role;

/** Single sign-on providers accepted by `/sso/{provider}/redirect` (spec §5): two global, one Swiss. */
export const ssoProviders = ['google', 'microsoft', 'swissid'] as const;
export type SsoProvider = (typeof ssoProviders)[number];
export const ssoProviderLabel: Record<SsoProvider, string> = { google: 'Google', microsoft: 'Microsoft', swissid: 'SwissID' };
export const isSsoProvider = (value: unknown): value is SsoProvider =>
  typeof value === 'string' && (ssoProviders as readonly string[]).includes(value);
