/**
 * Validation messages. The spec §5 ones are the contract and must stay character for character;
 * the ones marked "ours" cover cases the spec leaves open (spec §5 "Other rules are not shown").
 */
export const validationMessages = {
  // Shared helpers (spec §5 "Shared helpers").
  fieldRequired: 'This field is required',
  arrayExpected: 'array expected',
  keyNotAllowed: 'this key cannot be included',
  emailWhitespace: 'email must not contain any whitespace (before or after)',
  emailInvalid: 'email invalid',
  uuidInvalid: 'uuid invalid',
  // The spec keeps this text although the minimum is 9 characters (spec §5, §9 "message says 8").
  passwordTooShort: 'password length smaller than 8',
  mustBeInteger: 'must be an integer',
  negativeNotAccepted: 'negative numbers are not accepted',
  idMustBePositive: 'id must be greater than 0',
  // Forms (spec §5).
  fieldMustBeGiven: 'This field must be given',
  accountMustNotBeEmpty: 'Account must not be empty',
  typeMustBeGiven: 'Type must be given',
  ibanMustNotBeEmpty: 'IBAN must not be empty',
  publicAddressMustNotBeEmpty: 'Public address must not be empty',
  ibanWronglyFormatted: 'The IBAN is wrongly formatted',
  qrIbanInvalid: 'The QR IBAN is invalid',
  bicWronglyFormatted: 'The BIC is wrongly formatted',
  vatTooHigh: "VAT can't exceed 99%",
  vatTooLow: "VAT can't be lower than 1%",
  defaultCurrencyMustBeGiven: 'Default currency must be given',
  // Ours.
  dateInvalid: 'date invalid',
  uidInvalid: 'UID invalid',
  countryUnknown: 'country unknown',
  currencyUnknown: 'currency unknown',
  vatNotNumber: 'VAT must be a number with at most 3 decimals',
  ledgerCodeRange: 'ledger code must be between 1000 and 9999',
  ledgerCodeDuplicate: 'ledger code already used',
  bankAccountTypeInvalid: 'type must be IBAN (1) or QR bill (2)',
  paymentProfileTypeNotOffered: 'type not supported',
  phoneInvalid: 'phone number invalid',
  linkInvalid: 'link must be an http or https URL',
  barcodeInvalid: 'barcode must be 1 to 80 printable ASCII characters',
  referenceNumberInvalid: 'reference number must be a QR reference or a creditor reference (RF) with a valid check digit',
  amountInvalid: 'amount must be a decimal number with at most 2 decimals, optionally with a currency code (1234.50 EUR)',
  internalLinkInvalid: 'internal link must be a path of this application starting with /',
  additionalPropertyTypeUnknown: 'additional property type unknown',
  propertyNameTooLong: 'name must have at most 100 characters',
  propertyValueTooLong: 'value must have at most 2000 characters',
  instanceNameTooLong: 'name must have at most 100 characters',
  publicAddressInvalid: 'The public address is invalid',
  bicOnlyForIban: 'BIC is only used with IBAN and QR bill',
  accountNumberDigits: 'account number must have 4 to 10 digits',
  accountTypeUnknown: 'account type unknown',
  functionTypeUnknown: 'function type unknown',
  descriptionTooLong: 'description must have at most 500 characters',
  journalEntryTwoLines: 'a journal entry needs at least two lines',
  amountPositive: 'amount must be greater than 0',
  directionInvalid: 'direction must be 1 (debit) or -1 (credit)',
  exchangeRateInvalid: 'exchange rate must be a decimal number greater than 0 with at most 10 decimals',
  debitCreditUnequal: 'debit and credit must be equal',
  // Staff expenses (issue 16 §4): the journal text carries the description, and a claim needs its person.
  expenseDescriptionRequired: 'an expense needs a description (what was bought): it becomes the journal text',
  expenseEmployeeRequired: 'choose the employee, or add a new one with name and IBAN',
} as const;

/** 'expected type string' etc. (spec §5 "'expected type ...'"). */
export const expectedTypeMessage = (type: string): string => `expected type ${type}`;

/**
 * A company name or address field longer than a Swiss QR-bill allows (SIX IG v2.3 §4.3.2, address
 * type S), e.g. 'Name must be at most 70 characters for Swiss QR-bills'. Ours.
 */
export const qrBillLengthMessage = (label: string, max: number): string => `${label} must be at most ${max} characters for Swiss QR-bills`;

/**
 * A character outside the Swiss payments character set (SPS 2025 / IG v2.3 §4.1.1), e.g.
 * 'Character "Ω" cannot be used in Swiss payments'; invisible ones are named by code point
 * ('Character U+0009 …'). Ours.
 */
export const qrBillCharacterMessage = (character: string): string => {
  const shown = /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character)
    ? `"${character}"`
    : `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `Character ${shown} cannot be used in Swiss payments`;
};

/** Amounts beyond MAX_AMOUNT (money.ts): the database columns could not hold their sums. */
export const amountTooLargeMessage = (max: string): string => `amount must be between -${max} and ${max}`;

/** Amount format message; the spec leaves it open, so it names the rule the input broke. */
export const amountMessage = (maxDecimals: number): string =>
  `amount must be a decimal number with at most ${maxDecimals} decimals`;

/** The message of `zDate` (spec §5 date rule; the text is ours). */
export const DATE_INVALID_MESSAGE = validationMessages.dateInvalid;
