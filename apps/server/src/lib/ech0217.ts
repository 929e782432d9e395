/**
 * eCH-0217 v1.0 `VATDeclaration` (namespace http://www.ech.ch/xmlns/eCH-0217/1): the electronic VAT
 * return the ESTV portal takes for upload, written from a return's figures. Pure: no I/O; built with
 * xmlbuilder2 so every text is escaped. Validated against the XSD (with eCH-0097 v3 and eCH-0058 v5)
 * in apps/server/test/accounting/vat-return.test.ts.
 *
 * Mapping of the form's figures (shared/data/vat/ech-0217/README.md names the parts):
 * - turnoverComputation: 200 totalConsideration, 220 suppliesToForeignCountries, 221 suppliesAbroad,
 *   225 transferNotificationProcedure, 230 suppliesExemptFromTax, 235 reductionOfConsideration,
 *   280 variousDeduction (with a description);
 * - effectiveReportingMethod: grossOrNet 1 (net amounts, the ESTV's recommendation), 205 opted,
 *   one suppliesPerTaxRate / acquisitionTax per rate (taxRate in percent, turnover net of tax),
 *   400 inputTaxMaterialAndServices, 405 inputTaxInvestments, 410 subsequentInputTaxDeduction,
 *   415 inputTaxCorrections, 420 inputTaxReductions;
 * - netTaxRateMethod: one suppliesPerTaxRate per approved rate (turnover including tax),
 *   acquisitionTax; no compensation forms (1050/1055/1056);
 * - payableTax: 500 − 510 (negative: a credit), otherFlowsOfFunds: 900 subsidies, 910 donations.
 * Optional amounts that are 0.00 are left out; a correction (typeOfSubmission 2) carries the
 * differences, which may be negative.
 */
import { create } from 'xmlbuilder2';
import { formatSwissUid, toFixedAmount, toMoney, VERSION, vatPayable, type VatBasis, type VatFigures, type VatSubmissionTypeId } from '@bilan/domain';

export const ECH0217_NAMESPACE = 'http://www.ech.ch/xmlns/eCH-0217/1';
const ECH0097_NAMESPACE = 'http://www.ech.ch/xmlns/eCH-0097/3';
const ECH0058_NAMESPACE = 'http://www.ech.ch/xmlns/eCH-0058/5';

export interface VatDeclarationInput {
  /** The VAT number or UID in any accepted form ('CHE-116.281.710 MWST'). */
  vatNumber: string;
  organisationName: string;
  generatedAt: Date;
  dateFrom: string;
  dateTo: string;
  typeOfSubmission: VatSubmissionTypeId;
  basis: VatBasis;
  /** Our reference of the return (eCH-0058 businessReferenceId, 1–50 characters). */
  businessReferenceId: string;
  figures: VatFigures;
}

type Element = ReturnType<ReturnType<typeof create>['ele']>;

const isZero = (amount: string) => toMoney(amount).isZero();
/** xs:token of at most `max` characters: whitespace collapsed. */
const token = (text: string, max: number) => text.replace(/\s+/g, ' ').trim().slice(0, max);
/** percentType: 0–100 with at most 2 decimals. */
const percent = (ratePercent: string) => toMoney(ratePercent).toDecimalPlaces(2).toFixed();

/** The 9 digits of the UID ('CHE-116.281.710 MWST' → '116281710'); throws when there are none. */
export function uidDigits(vatNumber: string): string {
  const digits = formatSwissUid(vatNumber.trim()).replace(/^CHE-(\d{3})\.(\d{3})\.(\d{3}).*$/, '$1$2$3');
  if (!/^\d{9}$/.test(digits)) throw new RangeError(`"${vatNumber}" is not a UID`);
  return digits;
}

function amount(parent: Element, name: string, value: string, optional = true): void {
  if (optional && isZero(value)) return;
  parent.ele(name).txt(toFixedAmount(value));
}

/** The return as an eCH-0217 XML document (UTF-8). */
export function vatDeclarationXml(input: VatDeclarationInput): string {
  const { figures: all } = input;
  const f = all.figures;
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(ECH0217_NAMESPACE, 'VATDeclaration');

  const general = root.ele('generalInformation');
  const uid = general.ele('uid');
  uid.ele(ECH0097_NAMESPACE, 'uidOrganisationIdCategorie').txt('CHE');
  uid.ele(ECH0097_NAMESPACE, 'uidOrganisationId').txt(uidDigits(input.vatNumber));
  general.ele('organisationName').txt(token(input.organisationName, 255) || '-');
  // xs:dateTime without fractions, in UTC.
  general.ele('generationTime').txt(`${input.generatedAt.toISOString().slice(0, 19)}Z`);
  general.ele('reportingPeriodFrom').txt(input.dateFrom);
  general.ele('reportingPeriodTill').txt(input.dateTo);
  general.ele('typeOfSubmission').txt(String(input.typeOfSubmission));
  general.ele('formOfReporting').txt(input.basis === 'agreed' ? '1' : '2');
  general.ele('businessReferenceId').txt(token(input.businessReferenceId, 50));
  const application = general.ele('sendingApplication');
  application.ele(ECH0058_NAMESPACE, 'manufacturer').txt('Bilan');
  application.ele(ECH0058_NAMESPACE, 'product').txt('Bilan');
  application.ele(ECH0058_NAMESPACE, 'productVersion').txt(token(VERSION, 10));

  const turnover = root.ele('turnoverComputation');
  amount(turnover, 'totalConsideration', f['200'], false);
  amount(turnover, 'suppliesToForeignCountries', f['220']);
  amount(turnover, 'suppliesAbroad', f['221']);
  amount(turnover, 'transferNotificationProcedure', f['225']);
  amount(turnover, 'suppliesExemptFromTax', f['230']);
  amount(turnover, 'reductionOfConsideration', f['235']);
  if (!isZero(f['280'])) {
    const various = turnover.ele('variousDeduction');
    various.ele('amountVariousDeduction').txt(toFixedAmount(f['280']));
    various.ele('descriptionVariousDeduction').txt('Diverses');
  }

  const rows = (method: Element, kind: 'supply' | 'acquisition' | 'net', name: string) => {
    // One element per rate: rows of two periods at the same rate (e.g. a 2.5 % supply of 2017 and
    // one of 2020, or 321 and 322 at an unchanged net tax rate) are one turnover at that rate.
    const byRate = new Map<string, ReturnType<typeof toMoney>>();
    for (const line of all.taxLines.filter((l) => l.kind === kind && !(isZero(l.base) && isZero(l.tax)))) {
      const rate = percent(line.ratePercent);
      byRate.set(rate, (byRate.get(rate) ?? toMoney(0)).plus(toMoney(line.base)));
    }
    for (const [rate, turnover] of byRate) {
      const row = method.ele(name);
      row.ele('taxRate').txt(rate);
      row.ele('turnover').txt(toFixedAmount(turnover));
    }
  };
  if (all.method === 'effective') {
    const method = root.ele('effectiveReportingMethod');
    method.ele('grossOrNet').txt('1');
    amount(method, 'opted', f['205']);
    rows(method, 'supply', 'suppliesPerTaxRate');
    rows(method, 'acquisition', 'acquisitionTax');
    amount(method, 'inputTaxMaterialAndServices', f['400']);
    amount(method, 'inputTaxInvestments', f['405']);
    amount(method, 'subsequentInputTaxDeduction', f['410']);
    amount(method, 'inputTaxCorrections', f['415']);
    amount(method, 'inputTaxReductions', f['420']);
  } else {
    const method = root.ele('netTaxRateMethod');
    rows(method, 'net', 'suppliesPerTaxRate');
    rows(method, 'acquisition', 'acquisitionTax');
  }

  root.ele('payableTax').txt(vatPayable(all));
  if (!isZero(f['900']) || !isZero(f['910'])) {
    const other = root.ele('otherFlowsOfFunds');
    amount(other, 'subsidies', f['900']);
    amount(other, 'donations', f['910']);
  }
  return doc.end({ prettyPrint: true });
}
