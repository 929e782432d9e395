export * from './onboarding.js';
export * from './payment-profile.js';
export * from './ledger-account.js';
export * from './journal-entry.js';
export * from './invoice.js';
export * from './company.js';
export * from './payable.js';
export * from './vat-code.js';
