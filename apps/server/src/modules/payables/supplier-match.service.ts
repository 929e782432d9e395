/**
 * The supplier of a confirmed QR-bill (issue #5 §2: "the supplier company and its payment profile
 * are matched or created on confirmation"), inside the bill's own transaction so a failure leaves
 * neither a company nor a profile behind.
 */
import { formatSwissUid, isQrIban, normalizeIban, PaymentProfileType, type CompanyAddress } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { controlAccount } from '../accounting/accounting.service.js';
import { companyByUidOrName, insertCompanyWithAddress, insertPaymentProfile, profileByIban } from '../companies/companies.service.js';
import { ownCompanyUuid } from '../instances/instances.service.js';

export interface SupplierInput {
  /** The QR-bill's creditor name. */
  name: string;
  /** Swiss UID when known (eCH-0097). */
  uid?: string | null | undefined;
  /** Structured address (QR-bill address type S); used only when the company is created. */
  address?: CompanyAddress | null | undefined;
  /** The QR-bill's IBAN or QR-IBAN, valid (checked by the route's schema). */
  iban: string;
}

export interface SupplierMatch {
  company: { uuid: string; name: string };
  paymentProfile: { id: number; iban: string; type: number };
  /** How the company was found: by the IBAN of an existing profile, by UID, by name, or created. */
  matchedBy: 'iban' | 'uid' | 'name' | 'created';
  /** True when the IBAN was added as a new payment profile. */
  profileCreated: boolean;
}

/**
 * Finds or creates the supplier of a bill and the payment profile to pay it to, in this order:
 * 1. an active IBAN or QR-bill profile with this IBAN (another company's than the workplace's own;
 *    with several, the one whose company has the same name, else the oldest) → that profile;
 * 2. a company with the same UID, else the same name (trimmed, case-insensitive) → a new profile;
 * 3. otherwise a new company (with the address) and profile.
 * New profiles are of type QR bill for a QR-IBAN (IID 30000–31999), else IBAN, on the payables
 * ledger account (function payable, else 2000) — or, for an employee named with a staff expense
 * (`liability` 'expenses', issue 16 §4), on the staff account 2250 the expense is owed on. Errors
 * name fields relative to `supplier`.
 */
export async function matchOrCreateSupplier(
  tx: Tx,
  instanceId: string,
  supplier: SupplierInput,
  liability: 'payable' | 'expenses' = 'payable',
): Promise<SupplierMatch> {
  const iban = normalizeIban(supplier.iban);
  const name = supplier.name.trim();
  const own = await ownCompanyUuid(tx, instanceId);
  const byIban = await profileByIban(tx, instanceId, { iban, types: [PaymentProfileType.Iban, PaymentProfileType.QrBill], exceptCompany: own, preferName: name });
  if (byIban) {
    return {
      company: byIban.company,
      paymentProfile: { id: byIban.id, iban, type: byIban.type },
      matchedBy: 'iban',
      profileCreated: false,
    };
  }

  const uid = supplier.uid?.trim() ? formatSwissUid(supplier.uid.trim()) : null;
  const byName = await companyByUidOrName(tx, instanceId, { uid, name, exceptCompany: own });
  let company: { uuid: string; name: string };
  let matchedBy: SupplierMatch['matchedBy'];
  if (byName) {
    company = { uuid: byName.uuid, name: byName.name };
    matchedBy = byName.byUid ? 'uid' : 'name';
  } else {
    const created = await insertCompanyWithAddress(tx, instanceId, { name, uid, address: supplier.address ?? null });
    company = { uuid: created.uuid, name: created.name };
    matchedBy = 'created';
  }
  const type = isQrIban(iban) ? PaymentProfileType.QrBill : PaymentProfileType.Iban;
  const profile = await insertPaymentProfile(tx, instanceId, { company: { uuid: company.uuid }, account: { id: await controlAccount(tx, instanceId, liability) }, type, iban });
  return { company, paymentProfile: { id: profile.id, iban, type }, matchedBy, profileCreated: true };
}
