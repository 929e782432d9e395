/**
 * What documents of other modules take from the instance (issue 11 §3: instances owns the instance
 * table): the books' currency, the default VAT rate and VAT number, the own company. Re-exported by
 * instances.service.ts.
 */
import { currencyCodeById, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

export interface InstanceDefaults {
  /** The books' currency (every posting's amount is in it). */
  currency: CurrencyCode;
  /** The instance's VAT rate as stored (a fraction, numeric scale kept, e.g. "0.08100"), or null. */
  vatRate: string | null;
  /** The VAT number printed on documents (CHE-… MWST), or null. */
  vatNumber: string | null;
  /** The own company (onboarding's): creditor of invoices, owner of the own payment profiles. */
  ownCompanyUuid: string | null;
}

/** The instance's defaults above, in one query; CHF and nulls when the instance is unknown. */
export async function instanceDefaults(tx: Tx, instanceId: string): Promise<InstanceDefaults> {
  const [row] = await tx.query<{ currency_id: number; vat_rate: string | null; vat_number: string | null; own_company_uuid: string | null }>(
    'SELECT currency_id, vat_rate::text AS vat_rate, vat_number, own_company_uuid FROM instance WHERE id = $1',
    [instanceId],
  );
  return {
    currency: currencyCodeById(row?.currency_id ?? 1) ?? 'CHF',
    vatRate: row?.vat_rate ?? null,
    vatNumber: row?.vat_number ?? null,
    ownCompanyUuid: row?.own_company_uuid ?? null,
  };
}
