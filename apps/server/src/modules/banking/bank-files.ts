/**
 * Readers for the bank's ISO 20022 answers (pure, no I/O), with fast-xml-parser:
 * - camt.053 (statement) and camt.054 (debit/credit notification), versions .001.04 and .001.08
 *   (SIX "Swiss Implementation Guidelines for Cash Management" camt.053/054; the versions differ
 *   here only in `Sts` being text (04) or `Sts/Cd` (08) and in `RltdPties/Dbtr/Pty` (08));
 * - pain.002 (customer payment status report), .001.03 and .001.10.
 * Amounts stay decimal strings exactly as the bank wrote them.
 */
import { XMLParser } from 'fast-xml-parser';
import { isWithinAmountBound, MAX_AMOUNT } from '@bilan/domain';

/**
 * A bank file Bilan does not read: `message` is a sentence for a person ('This is not a camt.053
 * file: found <pain.001> at line 2'); `detail` is the parser's own text, for the log only.
 */
export class BankFileError extends Error {
  constructor(
    message: string,
    readonly detail: string | null = null,
  ) {
    super(message);
  }
}

/** The camt versions Bilan reads (SIX Swiss IG for Cash Management: .001.04 and .001.08). */
export const CAMT_VERSIONS = ['04', '08'] as const;
/** The pain.002 versions Bilan reads. */
export const PAIN002_VERSIONS = ['03', '10'] as const;

export interface CamtBalance {
  /** OPBD, CLBD, OPAV, CLAV, PRCD, ITBD… */
  type: string;
  /** Signed: negative when the bank wrote DBIT. */
  amount: string;
  currency: string;
  date: string | null;
}

export interface CamtTransaction {
  /** +1 credit (money in), -1 debit (money out). */
  direction: 1 | -1;
  amount: string;
  currency: string;
  endToEndId: string | null;
  accountServicerRef: string | null;
  /** Structured creditor reference (QRR or SCOR) or null. */
  reference: string | null;
  counterparty: string | null;
  /** The other party's IBAN (RltdPties/DbtrAcct for money in, CdtrAcct for money out), or null. */
  counterpartyIban: string | null;
  unstructured: string | null;
  /** The bank's charges on this transaction (TxDtls/Chrgs), unsigned, in the entry's currency, else null. */
  charges?: string | null;
  /** The detail's own amount as the bank wrote it (before a lone detail takes its entry's amount). */
  ownAmount?: string | null;
}

export interface CamtEntry {
  direction: 1 | -1;
  amount: string;
  currency: string;
  status: string;
  bookingDate: string | null;
  valueDate: string | null;
  accountServicerRef: string | null;
  entryRef: string | null;
  additionalInfo: string | null;
  /** RvslInd: this entry reverses an earlier one (a returned credit or debit). */
  reversal: boolean;
  /** The charges the bank reports on the entry (Ntry/Chrgs, else the sum of its details'), unsigned, else null. */
  charges: string | null;
  /** The entry's transaction details (several for a batch booking); empty when the bank gave none. */
  transactions: CamtTransaction[];
}

export interface CamtRecord {
  id: string | null;
  /** Account IBAN, or the other identification when the bank gave no IBAN. */
  account: string | null;
  currency: string | null;
  balances: CamtBalance[];
  entries: CamtEntry[];
}

export interface CamtDocument {
  kind: 'camt.052' | 'camt.053' | 'camt.054';
  version: string;
  messageId: string;
  createdAt: string | null;
  records: CamtRecord[];
}

export interface Pain002Transaction {
  originalEndToEndId: string | null;
  originalInstructionId: string | null;
  /** ISO ExternalPaymentTransactionStatus1Code: ACCP, ACSC, ACSP, ACTC, ACWC, PDNG, RJCT… */
  status: string | null;
  reasonCode: string | null;
  reasonText: string | null;
}

/** One OrgnlPmtInfAndSts: the status of a payment information block of the original pain.001. */
export interface Pain002Block {
  originalPaymentInformationId: string | null;
  /** PmtInfSts (ACCP, ACSC, PART, RJCT…) or null when the bank reports per transaction only. */
  status: string | null;
  reasonCode: string | null;
  reasonText: string | null;
  /** Its TxInfAndSts; empty when the block status speaks for all its transactions. */
  transactions: Pain002Transaction[];
}

export interface Pain002Document {
  kind: 'pain.002';
  version: string;
  messageId: string;
  originalMessageId: string;
  groupStatus: string | null;
  groupReason: string | null;
  groupReasonText: string | null;
  blocks: Pain002Block[];
  /** Every block's transactions, in file order. */
  transactions: Pain002Transaction[];
}

const ARRAYS = new Set(['Stmt', 'Rpt', 'Ntfctn', 'Chrgs', 'Rcrd', 'Ntry', 'NtryDtls', 'TxDtls', 'Bal', 'OrgnlPmtInfAndSts', 'TxInfAndSts', 'StsRsnInf', 'AddtlInf', 'Ustrd', 'Strd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => ARRAYS.has(name),
});

type Node = Record<string, unknown>;
const obj = (value: unknown): Node => (value && typeof value === 'object' ? (value as Node) : {});
const list = (value: unknown): Node[] => (Array.isArray(value) ? value.map(obj) : value === undefined ? [] : [obj(value)]);
function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && '#text' in (value as Node)) return String((value as Node)['#text']);
  return null;
}
const at = (node: unknown, ...path: string[]): unknown => path.reduce<unknown>((current, key) => obj(current)[key], node);
const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const date = (node: unknown): string | null => text(at(node, 'Dt')) ?? text(at(node, 'DtTm'))?.slice(0, 10) ?? null;
const direction = (value: unknown): 1 | -1 => (text(value) === 'DBIT' ? -1 : 1);

/**
 * An `Amt` element: ISO 20022 ActiveOrHistoricCurrencyAndAmount (≥ 0, at most 5 decimals). Refused
 * beyond MAX_AMOUNT like every amount Bilan takes (issue 11 §5): sums must stay within the columns.
 */
function amount(node: unknown): { amount: string; currency: string } | null {
  const value = text(node)?.trim() ?? null;
  if (value === null) return null;
  if (!/^\d{1,18}(\.\d{1,5})?$/.test(value)) throw new BankFileError(`the amount "${value.slice(0, 40)}" is not an ISO 20022 amount`);
  if (!isWithinAmountBound(value)) throw new BankFileError(`the amount ${value} is beyond ${MAX_AMOUNT}`);
  return { amount: value, currency: String(obj(node)['@Ccy'] ?? '') };
}

type BankFileKind = 'camt.052' | 'camt.053' | 'camt.054' | 'pain.002';

const lineAt = (xml: string, index: number) => xml.slice(0, index).split('\n').length;

/**
 * The message kind and version from the document's namespace, e.g. { kind: 'camt.054', version:
 * '08' }. Refuses, with a sentence for a person: any DOCTYPE (bank files have none; entities are
 * never expanded), a file that is not camt.052/053/054 or pain.002 (naming what was found and
 * where), and a version Bilan does not read (camt .001.04/.001.08, pain.002 .001.03/.001.10).
 */
export function detectBankFile(xml: string): { kind: BankFileKind; version: string } {
  const doctype = /<!DOCTYPE/i.exec(xml);
  if (doctype) throw new BankFileError(`The file declares a DOCTYPE (line ${lineAt(xml, doctype.index)}); bank files have none, so it is refused.`);
  const head = xml.slice(0, 4000);
  const namespace = /urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3})\.(\d{3})\.(\d{2})/.exec(head);
  const expected = 'This is not a camt.053, camt.054 or pain.002 file';
  if (!namespace) {
    const root = /<([A-Za-z_][\w.:-]*)[\s>/]/.exec(head.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, (m) => ' '.repeat(m.length)));
    throw new BankFileError(root ? `${expected}: found <${root[1]}> without an ISO 20022 namespace at line ${lineAt(head, root.index)}` : `${expected}: it is not XML`);
  }
  const name = namespace[1]!;
  const version = namespace[3]!;
  if (!['camt.052', 'camt.053', 'camt.054', 'pain.002'].includes(name)) {
    throw new BankFileError(`${expected}: found <${name}> at line ${lineAt(head, namespace.index)}`);
  }
  const kind = name as BankFileKind;
  const read: readonly string[] = kind === 'pain.002' ? PAIN002_VERSIONS : CAMT_VERSIONS;
  if (namespace[2] !== '001' || !read.includes(version)) {
    throw new BankFileError(
      `This ${kind} file is version .${namespace[2]}.${version}; Bilan reads ${kind} only in versions ${read.map((v) => `.001.${v}`).join(' and ')}`,
    );
  }
  return { kind, version };
}

function parseXml(xml: string, kind: string): Node {
  try {
    return obj(parser.parse(xml, true));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const line = /:(\d+):\d+\s*$/.exec(detail.split('\n')[0] ?? '')?.[1] ?? (error as { err?: { line?: number } })?.err?.line;
    throw new BankFileError(`This ${kind} file is broken: it is not well-formed XML${line ? ` (line ${line})` : ''}`, detail);
  }
}

/** The charges of a Chrgs element, unsigned: TtlChrgsAndTaxAmt (v08), else the sum of its records' (v08 Rcrd, v04 Chrgs) amounts. */
function chargesOf(node: unknown): string | null {
  const blocks = list(node);
  if (!blocks.length) return null;
  let cents = 0n;
  let found = false;
  const add = (value: unknown) => {
    const amt = amount(value);
    if (!amt) return;
    found = true;
    const [whole, fraction = ''] = amt.amount.split('.');
    cents += BigInt(whole!) * 100000n + BigInt(fraction.padEnd(5, '0').slice(0, 5));
  };
  for (const block of blocks) {
    const total = at(block, 'TtlChrgsAndTaxAmt');
    if (total !== undefined) add(total);
    else if (block.Rcrd !== undefined) for (const record of list(block.Rcrd)) add(at(record, 'Amt'));
    else add(at(block, 'Amt'));
  }
  if (!found) return null;
  const whole = cents / 100000n;
  const fraction = (cents % 100000n).toString().padStart(5, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

function transactionOf(detail: Node, entry: CamtEntry): CamtTransaction {
  const amt = amount(at(detail, 'Amt')) ?? amount(at(detail, 'AmtDtls', 'TxAmt', 'Amt'));
  const parties = obj(at(detail, 'RltdPties'));
  // Money in: the other party is the debtor; money out: the creditor. v08 wraps the party in Pty.
  // The entry's CdtDbtInd decides: it is the movement on the account. Some banks' details carry
  // their own indicator that contradicts it (genkgo's v04 sample: DBIT entry, CRDT details), and
  // genkgo/camt ignores it too.
  const dir = entry.direction;
  const party = obj(dir === 1 ? parties.Dbtr : parties.Cdtr);
  const name = text(at(party, 'Pty', 'Nm')) ?? text(at(party, 'Nm'));
  const account = obj(dir === 1 ? parties.DbtrAcct : parties.CdtrAcct);
  const iban = text(at(account, 'Id', 'IBAN'));
  const remittance = obj(at(detail, 'RmtInf'));
  const structured = list(remittance.Strd);
  const reference = structured.map((s) => text(at(s, 'CdtrRefInf', 'Ref'))).find((r) => r) ?? null;
  return {
    direction: dir,
    amount: amt?.amount ?? entry.amount,
    currency: amt?.currency || entry.currency,
    endToEndId: text(at(detail, 'Refs', 'EndToEndId')),
    accountServicerRef: text(at(detail, 'Refs', 'AcctSvcrRef')),
    reference,
    counterparty: name,
    counterpartyIban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null,
    unstructured: list(remittance.Ustrd).map(text).filter(Boolean).join(' ') || (typeof remittance.Ustrd === 'string' ? remittance.Ustrd : null) || null,
    charges: chargesOf(detail.Chrgs),
    ownAmount: amt && (!amt.currency || amt.currency === entry.currency) ? amt.amount : null,
  };
}

const MESSAGE = { 'camt.052': ['BkToCstmrAcctRpt', 'Rpt'], 'camt.053': ['BkToCstmrStmt', 'Stmt'], 'camt.054': ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'] } as const;

/** Reads a camt.052, camt.053 or camt.054 file (versions 04 and 08). */
export function parseCamt(xml: string): CamtDocument {
  const { kind, version } = detectBankFile(xml);
  if (kind === 'pain.002') throw new BankFileError('This is a pain.002 payment status report, not a bank statement');
  const [messageName, recordName] = MESSAGE[kind];
  const document = obj(parseXml(xml, kind).Document);
  if (document[messageName] === undefined) {
    const found = Object.keys(document).find((key) => !key.startsWith('@'));
    throw new BankFileError(`This is not a ${kind} file: found <${found ?? 'nothing'}> where <${messageName}> belongs`);
  }
  const message = obj(document[messageName]);
  const messageId = text(at(message, 'GrpHdr', 'MsgId'));
  if (!messageId) throw new BankFileError(`This ${kind} file has no message id (GrpHdr/MsgId)`);
  const records = list(message[recordName]).map((record): CamtRecord => {
    const account = text(at(record, 'Acct', 'Id', 'IBAN')) ?? text(at(record, 'Acct', 'Id', 'Othr', 'Id'));
    const balances = list(record.Bal).map((bal): CamtBalance => {
      const amt = amount(at(bal, 'Amt'));
      const signed = amt && direction(at(bal, 'CdtDbtInd')) === -1 && !amt.amount.startsWith('-') ? `-${amt.amount}` : (amt?.amount ?? '0');
      return {
        type: text(at(bal, 'Tp', 'CdOrPrtry', 'Cd')) ?? text(at(bal, 'Tp', 'CdOrPrtry', 'Prtry')) ?? '',
        amount: signed,
        currency: amt?.currency ?? '',
        date: date(at(bal, 'Dt')),
      };
    });
    const entries = list(record.Ntry).map((ntry): CamtEntry => {
      const amt = amount(at(ntry, 'Amt'));
      const sts = at(ntry, 'Sts');
      const entry: CamtEntry = {
        direction: direction(at(ntry, 'CdtDbtInd')),
        amount: amt?.amount ?? '0',
        currency: amt?.currency ?? '',
        status: text(sts) ?? text(at(sts, 'Cd')) ?? '',
        bookingDate: date(at(ntry, 'BookgDt')),
        valueDate: date(at(ntry, 'ValDt')),
        accountServicerRef: text(at(ntry, 'AcctSvcrRef')),
        entryRef: text(at(ntry, 'NtryRef')),
        additionalInfo: text(first(at(ntry, 'AddtlNtryInf'))),
        reversal: text(at(ntry, 'RvslInd')) === 'true',
        charges: chargesOf(ntry.Chrgs),
        transactions: [],
      };
      entry.transactions = list(ntry.NtryDtls).flatMap((details) => list(details.TxDtls).map((detail) => transactionOf(detail, entry)));
      if (entry.charges === null) {
        const perDetail = entry.transactions.map((detail) => detail.charges).filter((c): c is string => !!c);
        if (perDetail.length) entry.charges = chargesOf(perDetail.map((c) => ({ Amt: c })));
      }
      return entry;
    });
    return { id: text(record.Id), account, currency: text(at(record, 'Acct', 'Ccy')), balances, entries };
  });
  return { kind, version, messageId, createdAt: text(at(message, 'GrpHdr', 'CreDtTm')), records };
}

/** Reads a pain.002 status report (.001.03 or .001.10). */
export function parsePain002(xml: string): Pain002Document {
  const { kind, version } = detectBankFile(xml);
  if (kind !== 'pain.002') throw new BankFileError(`This is not a pain.002 file: found ${kind}`);
  const report = obj(at(parseXml(xml, kind), 'Document', 'CstmrPmtStsRpt'));
  const original = obj(report.OrgnlGrpInfAndSts);
  const originalMessageId = text(original.OrgnlMsgId);
  const messageId = text(at(report, 'GrpHdr', 'MsgId'));
  if (!messageId || !originalMessageId) throw new BankFileError('GrpHdr/MsgId or OrgnlGrpInfAndSts/OrgnlMsgId is missing');
  const reason = (node: unknown) => {
    const info = list(at(node, 'StsRsnInf'))[0];
    return {
      code: text(at(info, 'Rsn', 'Cd')) ?? text(at(info, 'Rsn', 'Prtry')),
      text: list(at(info, 'AddtlInf')).map(text).filter(Boolean).join(' ') || text(first(at(info, 'AddtlInf'))),
    };
  };
  const groupReason = reason(original);
  const blocks = list(report.OrgnlPmtInfAndSts).map((block): Pain002Block => {
    const blockReason = reason(block);
    const status = text(block.PmtInfSts);
    return {
      originalPaymentInformationId: text(block.OrgnlPmtInfId),
      status,
      reasonCode: blockReason.code,
      reasonText: blockReason.text,
      transactions: list(block.TxInfAndSts).map((tx): Pain002Transaction => {
        const why = reason(tx);
        return {
          originalEndToEndId: text(tx.OrgnlEndToEndId),
          originalInstructionId: text(tx.OrgnlInstrId),
          // A transaction without its own status takes its block's (PmtInfSts).
          status: text(tx.TxSts) ?? status,
          reasonCode: why.code,
          reasonText: why.text,
        };
      }),
    };
  });
  return {
    kind,
    version,
    messageId,
    originalMessageId,
    groupStatus: text(original.GrpSts),
    groupReason: groupReason.code,
    groupReasonText: groupReason.text,
    blocks,
    transactions: blocks.flatMap((block) => block.transactions),
  };
}
