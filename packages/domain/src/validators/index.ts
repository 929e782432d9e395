export * from './checksum.js';
export * from './iban.js';
export * from './bic.js';
export * from './reference.js';
export * from './uid.js';
export * from './date.js';
export * from './common.js';
export * from './ledger-address.js';
