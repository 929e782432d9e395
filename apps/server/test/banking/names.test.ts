/** Party names compared loosely for statement matching (src/modules/banking/names.ts). */
import { describe, expect, it } from 'vitest';
import { isSimilarName, nameTokens } from '../../src/modules/banking/names.js';

describe('isSimilarName', () => {
  it.each([
    ['Muster & Söhne AG', 'MUSTER SOEHNE'],
    ['Muster & Söhne AG', 'muster und sohne'],
    ['Papeterie Zürich GmbH', 'PAPETERIE ZUERICH'],
    ['Société Générale S.A.', 'SOCIETE GENERALE SA'],
    ['Simon Muster AG', 'MUSTER'],
    ['Muster Lieferant AG', 'MusterLieferant'],
    ['Straßenbau Meier GmbH', 'Strassenbau Meier'],
  ])('%s ~ %s', (ours, bank) => {
    expect(isSimilarName(ours, bank)).toBe(true);
  });

  it.each([
    ['Muster Lieferant AG', 'LSV MUSTER'],
    ['Muster Holding AG', 'Muster AG Bern'],
    ['Simon Muster AG', 'AG'],
    ['AB AG', 'AB'],
    ['Muster AG', null],
    ['', 'Muster'],
  ])('%s ≁ %s', (ours, bank) => {
    expect(isSimilarName(ours, bank)).toBe(false);
  });

  it('drops case, accents, punctuation and legal forms', () => {
    expect(nameTokens('Müller, Meier & Co. KG')).toEqual(['muller', 'meier']);
    expect(nameTokens('S.à r.l. Dupont')).toEqual(['dupont']);
  });
});
