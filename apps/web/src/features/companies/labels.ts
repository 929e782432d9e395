import { AdditionalPropertyType, Country, offeredPaymentProfileTypes, PaymentProfileType } from '@bilan/domain';
import { countryName, msg } from '../../lib/i18n';

// Countries in the UI's language (lib/i18n).
export { countryOptions } from '../../lib/i18n';
export const countryLabel = countryName;

const profileTypeNames: Record<number, string> = {
  [PaymentProfileType.Iban]: 'IBAN',
  [PaymentProfileType.QrBill]: msg('QR bill'),
  [PaymentProfileType.Ethereum]: 'Ethereum',
  [PaymentProfileType.Sepolia]: 'Sepolia',
  [PaymentProfileType.Goerli]: 'Goerli',
  [PaymentProfileType.Arbitrum]: 'Arbitrum',
  [PaymentProfileType.Polygon]: 'Polygon',
  [PaymentProfileType.Solana]: 'Solana',
  [PaymentProfileType.Stripe]: 'Stripe',
  [PaymentProfileType.Revolut]: 'Revolut',
  [PaymentProfileType.Expense]: msg('None'),
};
export const profileTypeLabel = (type: number): string => profileTypeNames[type] ?? String(type);
export const profileTypeOptions = offeredPaymentProfileTypes.map((type) => ({ value: String(type), label: profileTypeNames[type]! }));

/** The property types' names (shown translated with `t`). */
const propertyTypeNames: Record<number, string> = {
  [AdditionalPropertyType.Text]: msg('Text'),
  [AdditionalPropertyType.Email]: msg('Email'),
  [AdditionalPropertyType.Phone]: msg('Phone'),
  [AdditionalPropertyType.Link]: msg('Link'),
  [AdditionalPropertyType.Date]: msg('Date'),
  [AdditionalPropertyType.Barcode]: msg('Barcode'),
  [AdditionalPropertyType.ReferenceNumber]: msg('Reference Number'),
  [AdditionalPropertyType.Amount]: msg('Amount'),
  [AdditionalPropertyType.InternalLink]: msg('Internal Link'),
};
export const propertyTypeLabel = (type: number): string => propertyTypeNames[type] ?? String(type);
export const propertyTypeOptions = Object.values(AdditionalPropertyType).map((id) => ({ value: String(id), label: propertyTypeNames[id]! }));

/** One-line address as people write it in Switzerland: "Street 12, 8001 Zürich". */
export function addressLine(a: { street: string; houseNumber: string | null; zip: string; city: string } | null): string {
  if (!a) return '';
  return `${a.street}${a.houseNumber ? ` ${a.houseNumber}` : ''}, ${a.zip} ${a.city}`;
}

/** City with its postcode, and the country when it is not Switzerland: "8001 Zürich", "75001 Paris (France)". */
export function cityLine(address: { zip: string; city: string; country: { id: number } } | null): string {
  if (!address) return '';
  const country = address.country.id === Country.Switzerland ? '' : ` (${countryLabel(address.country.id)})`;
  return `${address.zip} ${address.city}${country}`;
}

/** True when the role may write documents (owner, admin, accountant). */
export const canWrite = (permissions: readonly string[] | undefined): boolean => permissions?.includes('write') ?? false;
/** True when the role may change settings (owner, admin). */
export const canAdmin = (permissions: readonly string[] | undefined): boolean => permissions?.includes('admin') ?? false;

/** Link to the federal UID register for a Swiss UID (spec §2.7 "link to an external register if it starts with CHE"). */
export function uidRegisterLink(uid: string): string | null {
  const digits = uid.replace(/[^0-9]/g, '').slice(0, 9);
  return uid.startsWith('CHE') && digits.length === 9 ? `https://www.uid.admin.ch/Detail.aspx?uid_id=CHE${digits}` : null;
}
