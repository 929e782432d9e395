import { describe, expect, it } from 'vitest';
import { addressChoices } from './address-choices';

const main = { id: 7, street: 'Hauptgasse', houseNumber: '1', zip: '4500', city: 'Solothurn' };
const side = { id: 9, street: 'Nebengasse', houseNumber: null, zip: '4500', city: 'Solothurn' };

describe("the invoice form's address choice", () => {
  it("offers the chosen customer's addresses as address/list answered them", () => {
    expect(addressChoices([main, side], 'c-1', undefined)).toEqual([
      { value: '7', label: 'Hauptgasse 1, 4500 Solothurn' },
      { value: '9', label: 'Nebengasse, 4500 Solothurn' },
    ]);
    expect(addressChoices([], 'c-1', undefined)).toEqual([]);
    expect(addressChoices(null, null, undefined)).toEqual([]);
  });

  it("shows an edited document's address while its customer's addresses load, once when they arrive", () => {
    const document = { company: { uuid: 'c-1' }, address: side };
    expect(addressChoices(null, 'c-1', document)).toEqual([{ value: '9', label: 'Nebengasse, 4500 Solothurn' }]);
    expect(addressChoices([main, side], 'c-1', document).map((a) => a.value)).toEqual(['7', '9']);
  });

  it('leaves the edited document\'s address out once another customer is chosen', () => {
    expect(addressChoices(null, 'c-2', { company: { uuid: 'c-1' }, address: side })).toEqual([]);
    expect(addressChoices([main], 'c-2', { company: { uuid: 'c-1' }, address: side }).map((a) => a.value)).toEqual(['7']);
  });
});
