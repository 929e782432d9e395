import { describe, expect, it } from 'vitest';
import { addressLine, canAdmin, cityLine, canWrite, countryLabel, profileTypeLabel, profileTypeOptions, propertyTypeLabel, uidRegisterLink } from './labels';

describe('company labels', () => {
  it('links UIDs and VAT numbers starting with CHE to the UID register, others not', () => {
    expect(uidRegisterLink('CHE-116.281.710')).toBe('https://www.uid.admin.ch/Detail.aspx?uid_id=CHE116281710');
    expect(uidRegisterLink('CHE-116.281.710 MWST')).toBe('https://www.uid.admin.ch/Detail.aspx?uid_id=CHE116281710');
    expect(uidRegisterLink('DE123456789')).toBeNull();
    expect(uidRegisterLink('CHE-116')).toBeNull();
  });

  it('names types, countries and addresses', () => {
    expect(profileTypeOptions.map((o) => o.label)).toEqual(['IBAN', 'QR bill', 'Ethereum', 'Sepolia', 'Goerli', 'Arbitrum', 'Polygon', 'Solana']);
    expect(profileTypeLabel(2)).toBe('QR bill');
    expect(propertyTypeLabel(7)).toBe('Reference Number');
    expect(propertyTypeLabel(9)).toBe('Internal Link');
    expect(countryLabel(1)).toBe('Switzerland');
    expect(addressLine({ street: 'Rue du Rhône', houseNumber: '12', zip: '1204', city: 'Genève' })).toBe('Rue du Rhône 12, 1204 Genève');
    expect(addressLine({ street: 'Weg', houseNumber: null, zip: '3000', city: 'Bern' })).toBe('Weg, 3000 Bern');
    expect(cityLine({ zip: '6300', city: 'Zug', country: { id: 1 } })).toBe('6300 Zug');
    expect(cityLine({ zip: '75001', city: 'Paris', country: { id: 5 } })).toBe('75001 Paris (France)');
    expect(cityLine(null)).toBe('');
    expect(canWrite(['read', 'write'])).toBe(true);
    expect(canAdmin(['read', 'write'])).toBe(false);
  });
});
