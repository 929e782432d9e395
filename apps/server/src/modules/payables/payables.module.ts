/**
 * Payables (issue #5): bills and expenses, transaction groups, payment files, inbox files and
 * mails, registered under /api with one line in app.ts. Banking sits above payables (it changes
 * bills through payables' functions), so app.ts registers its routes itself.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { payableRoutes } from './payables.routes.js';
import { transactionGroupRoutes } from './transaction-groups.routes.js';
import { fileRoutes } from './files.routes.js';
import { mailRoutes } from './mail.routes.js';

export const payablesModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(payableRoutes);
  await app.register(transactionGroupRoutes);
  await app.register(fileRoutes);
  await app.register(mailRoutes);
};
