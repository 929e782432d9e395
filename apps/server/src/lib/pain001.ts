/**
 * ISO 20022 credit transfer initiation, pain.001.001.09 in the Swiss Payment Standards variant
 * (`pain.001.001.09.ch.03`, SIX "Swiss Business Rules / Implementation Guidelines for Customer-Bank
 * messages, Credit Transfer", SPS 2025). Pure: no I/O; the XML is built with xmlbuilder2, never by
 * string concatenation, so every text is escaped.
 *
 * What the XSD cannot say and this module enforces (tested in test/banking/pain001.test.ts):
 * - payment types (SPS IG §3.2 "Payment types"): a QR-IBAN takes exactly a QR reference (QRR,
 *   27 digits, mod 10 recursive) and a QR reference needs a QR-IBAN; an ordinary CH/LI IBAN takes a
 *   creditor reference (SCOR, ISO 11649) or none; abroad only SEPA (EUR to a SEPA-country IBAN,
 *   service level SEPA, charges SLEV), whose creditor reference travels structured as
 *   RmtInf/Strd/CdtrRefInf (Tp/CdOrPrtry/Cd SCOR, Ref) and otherwise the message as Ustrd — SEPA
 *   carries one or the other, never both (EPC SCT rulebook AT-05, SPS IG 2025 "Remittance Information");
 * - one payment information block (B level) per requested execution date and debtor account, its
 *   PmtInfId ending in `-YYYYMMDD-B<n>` so a pain.002 block status finds its bills by date;
 * - the SPS character set (Latin-1 + Latin Extended-A + € Ș ș Ț ț, SPS IG §2.4.1): other characters
 *   are transliterated (compatibility forms, then accents dropped) or replaced by '.'; identifiers use the narrower
 *   set of `Max35Text_pain001_ch`;
 * - structured addresses only (SPS 2025 drops unstructured AdrLine for creditors after Nov 2025).
 */
import { create } from 'xmlbuilder2';
import {
  isQrIban,
  isValidBic,
  isValidCreditorReference,
  isValidIban,
  isValidQrReference,
  normalizeIban,
  qrIid,
  toFixedAmount,
  toMoney,
  VERSION,
  type Money,
} from '@bilan/domain';

export const PAIN001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';
export const PAIN001_SCHEMA = 'pain.001.001.09.ch.03.xsd';

/** A structured postal address (SPS: StrtNm, BldgNb, PstCd, TwnNm, Ctry). */
export interface Pain001Address {
  street?: string | null;
  buildingNumber?: string | null;
  postCode?: string | null;
  town: string;
  /** ISO 3166-1 alpha-2, e.g. 'CH'. */
  country: string;
}

export interface Pain001Party {
  name: string;
  address?: Pain001Address | null;
}

export interface Pain001Account {
  iban: string;
  bic?: string | null;
}

export type Pain001Currency = 'CHF' | 'EUR';

/** One credit transfer (C level): one bill. */
export interface Pain001Payment {
  /** Our end-to-end id (the bill's), returned by the bank in pain.002 and camt.054. */
  endToEndId: string;
  /** Requested execution date, YYYY-MM-DD. */
  executionDate: string;
  debtor: Pain001Party & Pain001Account;
  creditor: Pain001Party & Pain001Account;
  /** Decimal string, > 0, at most 2 decimals, in `currency`. */
  amount: string;
  currency: Pain001Currency;
  /** QR reference (27 digits) or creditor reference (RF…); spaces are ignored. */
  reference?: string | null;
  /** Unstructured remittance text (at most 140 characters; QR-bill "additional information"). */
  message?: string | null;
  /**
   * ISO 20022 category purpose: 'SALA' for a salary payment. Such payments get a block of their own
   * with PmtTpInf/CtgyPurp (SPS IG pain.001 2022: B level), so the bank books them as salaries.
   */
  categoryPurpose?: 'SALA' | null;
}

export interface Pain001Input {
  /** Message id (MsgId); characters outside the SPS id set are dropped, at most 35 kept. */
  messageId: string;
  createdAt: Date;
  /** Initiating party name (the instance's company). */
  initiatingParty: string;
  payments: readonly Pain001Payment[];
}

/** SPS payment types this generator writes. */
export type PaymentKind = 'qrr' | 'scor' | 'iban' | 'sepa';

export interface Pain001Result {
  xml: string;
  numberOfTransactions: number;
  /** Sum of all instructed amounts (2 decimals), as written in GrpHdr/CtrlSum. */
  controlSum: string;
  /** Payment information blocks written (one per execution date, debtor account and category purpose). */
  blocks: number;
  kinds: PaymentKind[];
}

/** A payment the generator refuses, naming the field of `payments[index]`. */
export class Pain001Error extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** EEA + the non-EEA SEPA countries (EPC "SEPA Schemes' geographical scope", 2024). */
const SEPA_COUNTRIES = new Set(
  (
    'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK ' +
    'IS LI NO CH MC SM VA AD GB GI GG JE IM AL MD ME MK'
  ).split(' '),
);

const MAX_AMOUNT = toMoney('999999999.99');

// SPSText (pain.001.001.09.ch.03.xsd): Basic Latin, Latin-1 Supplement, Latin Extended-A, € Ș ș Ț ț,
// no control characters.
const SPS_TEXT_CHAR = /^[\u0020-\u007e\u00a0-\u017f€ȘșȚț]$/u;
// Max35Text_pain001_ch: the narrower set for MsgId, PmtInfId, InstrId, EndToEndId.
const SPS_ID_CHAR = /^[A-Za-z0-9+?/\-:().,' ]$/;

/**
 * Text in the SPS character set, at most `max` characters: characters outside the set are
 * replaced by their compatibility form ('Ǆ' → 'DŽ') or stripped of accents ('ǎ' → 'a'), else replaced by '.'
 * (SPS IG §2.4.1 lets the software convert characters the bank would refuse).
 */
export function spsText(value: string, max: number): string {
  let out = '';
  for (const char of value.normalize('NFC').replace(/[\r\n\t]+/g, ' ')) {
    if (SPS_TEXT_CHAR.test(char)) {
      out += char;
      continue;
    }
    // Compatibility forms first ('Ǆ' → 'DŽ', 'ﬁ' → 'fi'), then without accents ('ǎ' → 'a').
    const compatible = char.normalize('NFKD').normalize('NFC');
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
    const allowed = (text: string) => text !== '' && [...text].every((c) => SPS_TEXT_CHAR.test(c));
    out += allowed(compatible) ? compatible : allowed(base) ? base : '.';
  }
  return [...out.trim()].slice(0, max).join('');
}

/** An identifier in the `Max35Text_pain001_ch` set, at most 35 characters. */
export function spsId(value: string): string {
  const plain = value.normalize('NFD').replace(/\p{M}/gu, '');
  const kept = [...spsText(plain, 200)].filter((c) => SPS_ID_CHAR.test(c)).join('').trim();
  return kept.slice(0, 35) || 'NOTPROVIDED';
}

/** The country of an IBAN (its first two letters). */
const ibanCountry = (iban: string) => normalizeIban(iban).slice(0, 2);

/**
 * The SPS payment type of one payment, or a Pain001Error naming the field that breaks the rules
 * (field names relative to the payment: `creditor.iban`, `reference`, `currency`, `amount`…).
 */
export function classifyPayment(payment: Pain001Payment): PaymentKind {
  const iban = normalizeIban(payment.creditor.iban ?? '');
  if (!isValidIban(iban)) throw new Pain001Error('creditor.iban', 'The IBAN is wrongly formatted');
  if (!isValidIban(payment.debtor.iban ?? '')) throw new Pain001Error('debtor.iban', 'The IBAN is wrongly formatted');
  if (payment.creditor.bic && !isValidBic(payment.creditor.bic)) throw new Pain001Error('creditor.bic', 'BIC invalid');
  if (payment.debtor.bic && !isValidBic(payment.debtor.bic)) throw new Pain001Error('debtor.bic', 'BIC invalid');
  if (!payment.creditor.name?.trim()) throw new Pain001Error('creditor.name', 'This field must be given');
  let amount: Money;
  try {
    amount = toMoney(payment.amount);
  } catch {
    throw new Pain001Error('amount', 'amount must be a number with at most 2 decimals');
  }
  if (!amount.isFinite() || amount.decimalPlaces() > 2) throw new Pain001Error('amount', 'amount must be a number with at most 2 decimals');
  if (amount.lte(0) || amount.gt(MAX_AMOUNT)) throw new Pain001Error('amount', 'amount must be between 0.01 and 999999999.99');
  if (payment.currency !== 'CHF' && payment.currency !== 'EUR') throw new Pain001Error('currency', 'only CHF and EUR can be paid');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(payment.executionDate)) throw new Pain001Error('executionDate', 'date must be YYYY-MM-DD');

  const reference = payment.reference?.replace(/\s+/g, '') || undefined;
  const country = ibanCountry(iban);
  const domestic = country === 'CH' || country === 'LI';
  if (isQrIban(iban)) {
    // SPS IG: a QR-IBAN is only used with a QR reference (type 3 "QR-bill with QR reference").
    if (!reference || !isValidQrReference(reference)) throw new Pain001Error('reference', 'a QR-IBAN needs a QR reference (27 digits)');
    return 'qrr';
  }
  if (reference && isValidQrReference(reference)) throw new Pain001Error('reference', 'a QR reference needs a QR-IBAN');
  if (reference && !isValidCreditorReference(reference)) {
    throw new Pain001Error('reference', 'reference is neither a QR reference nor a creditor reference (RF…)');
  }
  if (domestic) return reference ? 'scor' : 'iban';
  if (payment.currency === 'EUR' && SEPA_COUNTRIES.has(country)) return 'sepa';
  throw new Pain001Error('creditor.iban', 'payments abroad are supported as SEPA only (EUR to an IBAN of a SEPA country)');
}

type Element = ReturnType<ReturnType<typeof create>['ele']>;

/**
 * PmtInfId of block `blockNumber`: up to 20 characters of the message id, the block's execution
 * date and its number (`…-20251125-B1`), at most 35 characters of the SPS id set. A pain.002 echoes
 * it as OrgnlPmtInfId; `executionDateOfBlock` reads the date back.
 */
export function paymentInformationId(messageId: string, executionDate: string, blockNumber: number): string {
  return spsId(`${spsId(messageId).slice(0, 20)}-${executionDate.replace(/-/g, '')}-B${blockNumber}`);
}

/** The execution date (YYYY-MM-DD) a PmtInfId written by paymentInformationId names, or null. */
export function executionDateOfBlock(paymentInformationId: string | null): string | null {
  const match = /-(\d{4})(\d{2})(\d{2})-B\d+$/.exec(paymentInformationId ?? '');
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function address(parent: Element, value: Pain001Address | null | undefined): void {
  if (!value?.town?.trim() || !/^[A-Z]{2}$/.test(value.country ?? '')) return;
  const adr = parent.ele('PstlAdr');
  if (value.street?.trim()) adr.ele('StrtNm').txt(spsText(value.street, 70));
  if (value.buildingNumber?.trim()) adr.ele('BldgNb').txt(spsText(value.buildingNumber, 16));
  if (value.postCode?.trim()) adr.ele('PstCd').txt(spsText(value.postCode, 16));
  adr.ele('TwnNm').txt(spsText(value.town, 35));
  adr.ele('Ctry').txt(value.country);
}

function agent(parent: Element, name: 'DbtrAgt' | 'CdtrAgt', iban: string, bic: string | null | undefined): void {
  const id = parent.ele(name).ele('FinInstnId');
  if (bic) {
    id.ele('BICFI').txt(bic.toUpperCase());
    return;
  }
  // Without a BIC a Swiss bank is named by its institution id (IID) from the IBAN (SPS IG: ClrSysMmbId CHBCC).
  const iid = qrIid(iban);
  const country = ibanCountry(iban);
  if (iid !== undefined && (country === 'CH' || country === 'LI')) {
    const member = id.ele('ClrSysMmbId');
    member.ele('ClrSysId').ele('Cd').txt('CHBCC');
    member.ele('MmbId').txt(String(iid).padStart(5, '0'));
  }
}

/**
 * Builds the pain.001.001.09.ch.03 document. Throws Pain001Error (`payments.N.<field>`) for a
 * payment that breaks the SPS rules; nothing is produced then. Amounts are summed exactly (decimal).
 */
export function buildPain001(input: Pain001Input): Pain001Result {
  if (input.payments.length === 0) throw new Pain001Error('payments', 'at least one payment is needed');
  const kinds = input.payments.map((payment, index) => {
    try {
      return classifyPayment(payment);
    } catch (error) {
      if (error instanceof Pain001Error) throw new Pain001Error(`payments.${index}.${error.field}`, error.message.slice(error.field.length + 2));
      throw error;
    }
  });

  // B level: one block per execution date, debtor account and category purpose, in first-seen order.
  const blocks = new Map<string, number[]>();
  input.payments.forEach((payment, index) => {
    const key = `${payment.executionDate}|${normalizeIban(payment.debtor.iban)}|${payment.categoryPurpose ?? ''}`;
    blocks.set(key, [...(blocks.get(key) ?? []), index]);
  });

  const total = input.payments.reduce((sum, payment) => sum.plus(toMoney(payment.amount)), toMoney(0));
  const messageId = spsId(input.messageId);
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc
    .ele(PAIN001_NAMESPACE, 'Document')
    .att('http://www.w3.org/2001/XMLSchema-instance', 'xsi:schemaLocation', `${PAIN001_NAMESPACE} ${PAIN001_SCHEMA}`)
    .ele('CstmrCdtTrfInitn');
  const header = root.ele('GrpHdr');
  header.ele('MsgId').txt(messageId);
  header.ele('CreDtTm').txt(input.createdAt.toISOString().slice(0, 19));
  header.ele('NbOfTxs').txt(String(input.payments.length));
  header.ele('CtrlSum').txt(toFixedAmount(total));
  const initiator = header.ele('InitgPty');
  initiator.ele('Nm').txt(spsText(input.initiatingParty, 70));
  // SPS IG: the software that wrote the file (NAME, PRVD, VRSN) and the SPS version (SPSV).
  const contact = initiator.ele('CtctDtls');
  for (const [channel, id] of [['NAME', 'Bilan'], ['PRVD', 'Bilan'], ['VRSN', VERSION.replace(/^v/, '')], ['SPSV', '0200']]) {
    const other = contact.ele('Othr');
    other.ele('ChanlTp').txt(channel!);
    other.ele('Id').txt(id!);
  }

  let blockNumber = 0;
  for (const indexes of blocks.values()) {
    blockNumber += 1;
    const first = input.payments[indexes[0]!]!;
    const sum = indexes.reduce((acc, i) => acc.plus(toMoney(input.payments[i]!.amount)), toMoney(0));
    const block = root.ele('PmtInf');
    block.ele('PmtInfId').txt(paymentInformationId(messageId, first.executionDate, blockNumber));
    block.ele('PmtMtd').txt('TRF');
    block.ele('BtchBookg').txt('true');
    block.ele('NbOfTxs').txt(String(indexes.length));
    block.ele('CtrlSum').txt(toFixedAmount(sum));
    if (first.categoryPurpose) block.ele('PmtTpInf').ele('CtgyPurp').ele('Cd').txt(first.categoryPurpose);
    block.ele('ReqdExctnDt').ele('Dt').txt(first.executionDate);
    const debtor = block.ele('Dbtr');
    debtor.ele('Nm').txt(spsText(first.debtor.name, 70));
    address(debtor, first.debtor.address);
    block.ele('DbtrAcct').ele('Id').ele('IBAN').txt(normalizeIban(first.debtor.iban));
    agent(block, 'DbtrAgt', first.debtor.iban, first.debtor.bic);

    for (const index of indexes) {
      const payment = input.payments[index]!;
      const kind = kinds[index]!;
      const tx = block.ele('CdtTrfTxInf');
      const id = tx.ele('PmtId');
      id.ele('InstrId').txt(spsId(`${blockNumber}-${index + 1}`));
      id.ele('EndToEndId').txt(spsId(payment.endToEndId));
      if (kind === 'sepa') tx.ele('PmtTpInf').ele('SvcLvl').ele('Cd').txt('SEPA');
      tx.ele('Amt').ele('InstdAmt').att('Ccy', payment.currency).txt(toFixedAmount(payment.amount));
      // SEPA: charges shared by service level (EPC SCT rulebook AT-?; SPS IG "SLEV").
      if (kind === 'sepa') tx.ele('ChrgBr').txt('SLEV');
      if (kind === 'sepa' && payment.creditor.bic) agent(tx, 'CdtrAgt', payment.creditor.iban, payment.creditor.bic);
      const creditor = tx.ele('Cdtr');
      creditor.ele('Nm').txt(spsText(payment.creditor.name, 70));
      address(creditor, payment.creditor.address);
      tx.ele('CdtrAcct').ele('Id').ele('IBAN').txt(normalizeIban(payment.creditor.iban));
      const reference = payment.reference?.replace(/\s+/g, '');
      const message = payment.message?.trim() ? spsText(payment.message, 140) : '';
      if (kind === 'sepa' && reference) {
        // SEPA: the creditor reference alone, structured (no AddtlRmtInf in the SEPA data set).
        const type = tx.ele('RmtInf').ele('Strd').ele('CdtrRefInf').ele('Tp').ele('CdOrPrtry');
        type.ele('Cd').txt('SCOR');
        type.up().up().ele('Ref').txt(reference.toUpperCase());
      } else if (kind === 'qrr' || kind === 'scor') {
        const structured = tx.ele('RmtInf').ele('Strd');
        const type = structured.ele('CdtrRefInf').ele('Tp').ele('CdOrPrtry');
        if (kind === 'qrr') type.ele('Prtry').txt('QRR');
        else type.ele('Cd').txt('SCOR');
        type.up().up().ele('Ref').txt(reference!.toUpperCase());
        if (message) structured.ele('AddtlRmtInf').txt(message);
      } else if (message) {
        tx.ele('RmtInf').ele('Ustrd').txt(message);
      }
    }
  }

  return {
    xml: doc.end({ prettyPrint: true }),
    numberOfTransactions: input.payments.length,
    controlSum: toFixedAmount(total),
    blocks: blocks.size,
    kinds,
  };
}
