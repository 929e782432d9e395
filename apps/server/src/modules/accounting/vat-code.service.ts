/**
 * VAT codes of an instance (issue 13 §1, decision 019): list, create, change, delete. A code is
 * never renamed (postings refer to it); a used code keeps its kind and rate type (its postings'
 * signs and figures depend on them) and is deactivated rather than deleted. Changes are audited.
 */
import { VAT_ACCOUNT_NAMES, type VatCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { recordAudit, type VatCodeAuditEvent } from '../audit/audit.service.js';
import { AccountingError, notFoundError } from './accounting.errors.js';
import { selectLedgerAccounts } from './ledger-account.sql.js';
import {
  deleteUnusedVatCode,
  insertVatCode,
  lockVatCode,
  selectVatCodes,
  selectVatCodesForPosting,
  updateVatCode,
  type VatCodeWithUse,
} from './vat-code.sql.js';

export type { VatCodeWithUse } from './vat-code.sql.js';

/** Who changes a code, for the audit trail. */
export interface VatCodeActor {
  userId: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** The instance's VAT codes by code, each with whether postings carry it. */
export const listVatCodes = (tx: Tx, instanceId: string): Promise<VatCodeWithUse[]> => selectVatCodes(tx, instanceId);

/** The named codes that exist, by code (documents look up the accounts of the codes they post with). */
export async function findVatCodes(tx: Tx, instanceId: string, codes: readonly string[]): Promise<Map<string, VatCode>> {
  return new Map((await selectVatCodesForPosting(tx, instanceId, codes)).map((code) => [code.code, code]));
}

/**
 * The rules across fields that the database's CHECKs of migration 0023 enforce too, as 400s naming
 * the field; and the accounts must exist (or be one of the VAT accounts created on first use).
 */
async function checkVatCode(tx: Tx, instanceId: string, code: VatCode): Promise<void> {
  const fields: Record<string, string> = {};
  const zeroKind = code.kind === 'exempt' || code.kind === 'outside';
  if (zeroKind !== (code.rateType === 'zero')) {
    fields.rateType = zeroKind ? `a code of kind ${code.kind} carries no tax: rate type zero` : `a code of kind ${code.kind} needs a rate type other than zero`;
  }
  if (code.rateType === 'zero' && code.accountNumber !== null) fields.accountNumber = 'a zero-rate code posts no tax: no account';
  if (code.rateType !== 'zero' && code.accountNumber === null) fields.accountNumber = 'the account the tax goes to must be given';
  const acquisition = code.kind === 'acquisition';
  if (acquisition !== (code.deductionAccountNumber !== null)) {
    fields.deductionAccountNumber = acquisition ? 'an acquisition tax posts its deduction: give the input tax account (1170 or 1171)' : 'only an acquisition tax has a deduction account';
  }
  if (acquisition !== (code.zifferDeduction !== null)) {
    fields.zifferDeduction = acquisition ? 'an acquisition tax needs the Ziffer of its deduction (400 or 405)' : 'only an acquisition tax has a deduction Ziffer';
  }
  if (acquisition && code.defaultEntry !== 'net') fields.defaultEntry = 'an acquisition tax is entered net (the price carries no Swiss VAT)';
  const numbers = [code.accountNumber, code.deductionAccountNumber].filter((n): n is string => n !== null);
  if (numbers.length) {
    const existing = new Set((await selectLedgerAccounts(tx, instanceId, { numbers })).map((account) => account.number));
    for (const [field, number] of [['accountNumber', code.accountNumber], ['deductionAccountNumber', code.deductionAccountNumber]] as const) {
      if (number !== null && !existing.has(number) && !(number in VAT_ACCOUNT_NAMES)) fields[field] ??= `ledger account ${number} not found`;
    }
  }
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw new AccountingError('invalid_input', `${first![0]}: ${first![1]}`, fields);
  }
}

async function audit(tx: Tx, instanceId: string, actor: VatCodeActor, event: VatCodeAuditEvent, detail: Record<string, unknown>): Promise<void> {
  await recordAudit(tx, { event, instanceId, userId: actor.userId, ip: actor.ip ?? null, userAgent: actor.userAgent ?? null, detail });
}

async function answer(tx: Tx, instanceId: string, code: string): Promise<VatCodeWithUse> {
  const [found] = await selectVatCodes(tx, instanceId, [code]);
  if (!found) throw notFoundError('vat_code_not_found', 'VAT code', code);
  return found;
}

/** Creates a code; 400 for rules across fields, 409 `vat_code_taken` when the code exists. Audited. */
export async function createVatCode(tx: Tx, instanceId: string, code: VatCode, actor: VatCodeActor): Promise<VatCodeWithUse> {
  await checkVatCode(tx, instanceId, code);
  if (!(await insertVatCode(tx, instanceId, code))) {
    const message = `VAT code ${code.code} already exists`;
    throw new AccountingError('vat_code_taken', message, { code: message });
  }
  await audit(tx, instanceId, actor, 'vat_code.created', { code: code.code, before: null, after: code });
  return answer(tx, instanceId, code.code);
}

/**
 * Changes the given fields of a code (the row is locked, so parallel changes apply one after the
 * other). 404 unknown code; 409 `vat_code_in_use` when postings carry it and `kind` or `rateType`
 * would change (its postings were signed and taxed by them: create a new code). Audited.
 */
export async function changeVatCode(
  tx: Tx,
  instanceId: string,
  codeText: string,
  patch: Partial<Omit<VatCode, 'code'>>,
  actor: VatCodeActor,
): Promise<VatCodeWithUse> {
  const before = await lockVatCode(tx, instanceId, codeText);
  if (!before) throw notFoundError('vat_code_not_found', 'VAT code', codeText);
  const after: VatCode = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) };
  if (after.kind !== before.kind || after.rateType !== before.rateType) {
    const [current] = await selectVatCodes(tx, instanceId, [codeText]);
    if (current?.hasPostings) {
      const field = after.kind !== before.kind ? 'kind' : 'rateType';
      const message = `postings carry VAT code ${codeText}: its ${field} cannot change; create a new code and deactivate this one`;
      throw new AccountingError('vat_code_in_use', message, { [field]: message });
    }
  }
  await checkVatCode(tx, instanceId, after);
  await updateVatCode(tx, instanceId, after);
  await audit(tx, instanceId, actor, 'vat_code.updated', { code: codeText, before, after });
  return answer(tx, instanceId, codeText);
}

/** Deletes an unused code. 404 unknown; 409 `vat_code_in_use` when postings carry it (deactivate it instead). Audited. */
export async function removeVatCode(tx: Tx, instanceId: string, codeText: string, actor: VatCodeActor): Promise<void> {
  const before = await lockVatCode(tx, instanceId, codeText);
  if (!before) throw notFoundError('vat_code_not_found', 'VAT code', codeText);
  if (!(await deleteUnusedVatCode(tx, instanceId, codeText))) {
    const message = `postings carry VAT code ${codeText}: deactivate it (isActive false) instead of deleting it`;
    throw new AccountingError('vat_code_in_use', message, { code: message });
  }
  await audit(tx, instanceId, actor, 'vat_code.deleted', { code: codeText, before, after: null });
}
