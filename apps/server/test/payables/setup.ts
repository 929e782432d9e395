/** Set-up for the payables suites: an onboarded workplace plus suppliers made with the companies service. */
import { createAddress, createCompany, createPaymentProfile } from '../../src/modules/companies/companies.service.js';
import { createWorkplace, type TestServer, type Workplace } from '../helpers.js';

export const QR_IBAN = 'CH4431999123000889012';
export const QR_REF = '210000000003139471430009017';
export const IBAN = 'CH5800791123000889012';

export interface Supplier {
  uuid: string;
  qrProfile: number;
  ibanProfile: number;
}

export interface PayablesWorkplace extends Workplace {
  supplier: Supplier;
  account: (number: string) => Promise<number>;
}

export async function supplier(server: TestServer, instanceId: string, name = 'Muster Lieferant AG'): Promise<Supplier> {
  return server.db.withInstance(instanceId, async (tx) => {
    const uuid = await createCompany(tx, instanceId, { name });
    await createAddress(tx, instanceId, uuid, { street: 'Musterstrasse', houseNumber: '12', zip: '8000', city: 'Zürich', countryId: 1 });
    const qrProfile = await createPaymentProfile(tx, instanceId, { companyUuid: uuid, accountId: null, typeId: 2, iban: QR_IBAN, bic: null });
    const ibanProfile = await createPaymentProfile(tx, instanceId, { companyUuid: uuid, accountId: null, typeId: 1, iban: IBAN, bic: null });
    return { uuid, qrProfile, ibanProfile };
  });
}

export async function payablesWorkplace(server: TestServer, options: { role?: 'viewer' } = {}): Promise<PayablesWorkplace> {
  const wp = await createWorkplace(server, options.role ? { role: options.role, onboard: false } : {});
  return {
    ...wp,
    supplier: await supplier(server, wp.instanceId),
    account: async (number: string) => {
      const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
        tx.query<{ id: number }>('SELECT id FROM ledger_account WHERE instance_id = $1 AND number = $2', [wp.instanceId, number]),
      );
      return row!.id;
    },
  };
}

export async function payableCounts(server: TestServer, instanceId: string) {
  const [row] = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ payables: string; groups: string; entries: string }>(
      `SELECT (SELECT count(*) FROM payable) AS payables, (SELECT count(*) FROM transaction_group) AS groups,
              (SELECT count(*) FROM journal_entry) AS entries`,
    ),
  );
  return row!;
}
