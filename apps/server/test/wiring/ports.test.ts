/**
 * Ports are explicit (issue 11 §3): a route plugin registered without the port it needs fails at
 * start-up, naming the port, instead of answering wrongly (bank credits silently left unmatched).
 * With the ports of wireModules() every API test starts them (helpers.ts → buildApp).
 */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { accountingRoutes, type AccountingRouteOptions } from '../../src/modules/accounting/accounting.routes.js';
import { bankingRoutes, type BankingRouteOptions } from '../../src/modules/banking/banking.routes.js';
import { companyRoutes, type CompanyRouteOptions } from '../../src/modules/companies/companies.routes.js';
import { wireModules } from '../../src/modules/wiring/wiring.js';

/** A bare app with the zod compilers, as buildApp sets them up. */
function bareApp() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

describe('module ports', () => {
  it('refuses to start the banking routes without the invoice port', async () => {
    const app = bareApp();
    await expect(app.register(bankingRoutes, {} as BankingRouteOptions).ready()).rejects.toThrow("bankingRoutes: port 'invoicePort' missing");
  });

  it('refuses to start the company routes without the ap-ar sources', async () => {
    const app = bareApp();
    await expect(app.register(companyRoutes, {} as CompanyRouteOptions).ready()).rejects.toThrow("companyRoutes: port 'apArSources' missing");
  });

  it('refuses to start the accounting routes without the document resolvers', async () => {
    const app = bareApp();
    await expect(app.register(accountingRoutes, {} as AccountingRouteOptions).ready()).rejects.toThrow("accountingRoutes: port 'documents' missing");
  });

  it('refuses to start the accounting routes without the check sources', async () => {
    const app = bareApp();
    const options = { documents: wireModules().documentResolvers } as AccountingRouteOptions;
    await expect(app.register(accountingRoutes, options).ready()).rejects.toThrow("accountingRoutes: port 'checkSources' missing");
  });

  it('refuses to start the accounting routes without the VAT return\'s organisation port', async () => {
    const app = bareApp();
    const { documentResolvers, checkSources, statementLetterhead } = wireModules();
    const options = { documents: documentResolvers, checkSources, letterhead: statementLetterhead } as AccountingRouteOptions;
    await expect(app.register(accountingRoutes, options).ready()).rejects.toThrow("accountingRoutes: port 'vatOrganisation' missing");
  });
});
