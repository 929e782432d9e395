/**
 * VAT settings of an instance (issue 13 §3): VAT number and registration date, method (effective
 * or net tax rate with its approved rates), reporting period, basis (agreed or received
 * consideration) and the settlement account the filed returns are booked to. Decision 020.
 */
import { AccountType, defaultVatPeriod, formatVatNumber, type NetTaxRate, type VatBasis, type VatMethod, type VatPeriodKind } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { recordAudit } from '../audit/audit.service.js';
import { AccountingError, invalidField } from './accounting.errors.js';
import { selectLedgerAccounts } from './ledger-account.sql.js';
import { selectVatSettings, upsertVatSettings, type VatSettingsRow } from './vat.sql.js';

/**
 * The default settlement account (Abrechnungskonto MWST): the Swiss SME chart we seed has none —
 * its 2206 is Verrechnungssteuer (withholding tax), 2200–2203 hold the VAT of the codes — so 2209,
 * the last number of group 220, is created on the first filing (decision 020).
 */
export const DEFAULT_SETTLEMENT_ACCOUNT = { number: '2209', name: 'Abrechnungskonto MWST' } as const;

/** Who changes the settings or files a return, for the audit trail. */
export interface VatActor {
  userId: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** The settings as answered: the settlement account always named (the default until one is chosen). */
export interface VatSettings extends Omit<VatSettingsRow, 'settlementAccount'> {
  settlementAccount: { id: number | null; number: string; name: string; isDefault: boolean };
}

async function withSettlementAccount(tx: Tx, instanceId: string, row: VatSettingsRow): Promise<VatSettings> {
  if (row.settlementAccount) return { ...row, settlementAccount: { ...row.settlementAccount, isDefault: false } };
  const [existing] = await selectLedgerAccounts(tx, instanceId, { numbers: [DEFAULT_SETTLEMENT_ACCOUNT.number] });
  return {
    ...row,
    settlementAccount: existing
      ? { id: existing.id, number: existing.number, name: existing.name, isDefault: true }
      : { id: null, ...DEFAULT_SETTLEMENT_ACCOUNT, isDefault: true },
  };
}

/** The instance's VAT settings, or null before they are set. */
export async function getVatSettings(tx: Tx, instanceId: string): Promise<VatSettings | null> {
  const row = await selectVatSettings(tx, instanceId);
  return row ? withSettlementAccount(tx, instanceId, row) : null;
}

/**
 * The settings the return needs; 409 `vat_settings_missing` before they are set. `forUpdate` locks
 * them (filings of one instance then run one after the other).
 */
export async function requireVatSettings(tx: Tx, instanceId: string, forUpdate = false): Promise<VatSettings> {
  const row = await selectVatSettings(tx, instanceId, forUpdate);
  if (!row) {
    throw new AccountingError('vat_settings_missing', 'the VAT registration is not set up yet: enter the VAT number, method, period and basis in the VAT settings first');
  }
  return withSettlementAccount(tx, instanceId, row);
}

export interface VatSettingsUpdate {
  vatNumber: string;
  registrationDate: string;
  method: VatMethod;
  netTaxRates: NetTaxRate[];
  period?: VatPeriodKind | null | undefined;
  basis: VatBasis;
  settlementAccount?: { id: number } | null | undefined;
}

/**
 * Sets the VAT settings (already checked by vatSettingsSchema) and returns them. The settlement
 * account must be a balance-sheet account of the instance (asset or liability; 400 on
 * `data.settlementAccount.id`); `period` defaults by method. Audited.
 */
export async function updateVatSettings(tx: Tx, instanceId: string, input: VatSettingsUpdate, actor: VatActor): Promise<VatSettings> {
  let settlementAccountId: number | null = null;
  if (input.settlementAccount) {
    const [account] = await selectLedgerAccounts(tx, instanceId, { ids: [input.settlementAccount.id] });
    if (!account) throw invalidField('data.settlementAccount.id', `ledger account ${input.settlementAccount.id} not found`);
    if (account.type.id !== AccountType.liability && account.type.id !== AccountType.assets) {
      throw invalidField('data.settlementAccount.id', `${account.number} ${account.name} is not a balance-sheet account: the VAT settlement is a liability (or a claim) towards the ESTV`);
    }
    settlementAccountId = account.id;
  }
  const netTaxRates = input.netTaxRates.map((rate) => ({
    ratePercent: rate.ratePercent,
    accountFrom: rate.accountFrom ?? null,
    accountTo: rate.accountTo ?? null,
    previousRatePercent: rate.previousRatePercent ?? null,
  }));
  await upsertVatSettings(tx, instanceId, {
    vatNumber: formatVatNumber(input.vatNumber),
    registrationDate: input.registrationDate,
    method: input.method,
    netTaxRates,
    period: input.period ?? defaultVatPeriod(input.method),
    basis: input.basis,
    settlementAccountId,
    updatedBy: actor.userId,
  });
  const settings = await requireVatSettings(tx, instanceId);
  await recordAudit(tx, { event: 'vat_settings.updated', instanceId, userId: actor.userId, ip: actor.ip ?? null, userAgent: actor.userAgent ?? null, detail: { settings } });
  return settings;
}
