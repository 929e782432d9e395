/**
 * Payables and banking (issue #5): bills and expenses, transaction groups, payment files and bank
 * file imports, registered under /api with one line in app.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bankingRoutes } from '../banking/banking.routes.js';
import { payableRoutes } from './payables.routes.js';
import { transactionGroupRoutes } from './transaction-groups.routes.js';
import { fileRoutes } from './files.routes.js';
import { mailRoutes } from './mail.routes.js';

export const payablesModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(payableRoutes);
  await app.register(transactionGroupRoutes);
  await app.register(bankingRoutes);
  await app.register(fileRoutes);
  await app.register(mailRoutes);
};
