export * from './enums.js';
export * from './constants.js';
export * from './money.js';
export * from './messages.js';
export * from './format.js';
export * from './validators/index.js';
export * from './schemas/index.js';
