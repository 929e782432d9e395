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

export class BankFileError extends Error {}

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
  kind: 'camt.053' | 'camt.054';
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

const ARRAYS = new Set(['Stmt', 'Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls', 'Bal', 'OrgnlPmtInfAndSts', 'TxInfAndSts', 'StsRsnInf', 'AddtlInf', 'Ustrd', 'Strd']);

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

/** The message kind and version from the document's namespace, e.g. ['camt.054', '08']. */
export function detectBankFile(xml: string): { kind: 'camt.053' | 'camt.054' | 'pain.002'; version: string } {
  const match = /urn:iso:std:iso:20022:tech:xsd:(camt\.05[34]|pain\.002)\.001\.(\d{2})/.exec(xml.slice(0, 4000));
  if (!match) throw new BankFileError('not a camt.053, camt.054 or pain.002 file (unknown XML namespace)');
  return { kind: match[1] as 'camt.053' | 'camt.054' | 'pain.002', version: match[2]! };
}

function parseXml(xml: string): Node {
  try {
    return obj(parser.parse(xml, true));
  } catch (error) {
    throw new BankFileError(`the file is not well-formed XML (${error instanceof Error ? error.message.split('\n')[0] : 'parse error'})`);
  }
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
  };
}

/** Reads a camt.053 or camt.054 file (versions 04 and 08). */
export function parseCamt(xml: string): CamtDocument {
  const { kind, version } = detectBankFile(xml);
  if (kind === 'pain.002') throw new BankFileError('a pain.002 file is not a statement');
  const document = obj(parseXml(xml).Document);
  const message = obj(kind === 'camt.053' ? document.BkToCstmrStmt : document.BkToCstmrDbtCdtNtfctn);
  const messageId = text(at(message, 'GrpHdr', 'MsgId'));
  if (!messageId) throw new BankFileError('GrpHdr/MsgId is missing');
  const records = list(kind === 'camt.053' ? message.Stmt : message.Ntfctn).map((record): CamtRecord => {
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
        transactions: [],
      };
      entry.transactions = list(ntry.NtryDtls).flatMap((details) => list(details.TxDtls).map((detail) => transactionOf(detail, entry)));
      return entry;
    });
    return { id: text(record.Id), account, currency: text(at(record, 'Acct', 'Ccy')), balances, entries };
  });
  return { kind, version, messageId, createdAt: text(at(message, 'GrpHdr', 'CreDtTm')), records };
}

/** Reads a pain.002 status report (.001.03 or .001.10). */
export function parsePain002(xml: string): Pain002Document {
  const { kind, version } = detectBankFile(xml);
  if (kind !== 'pain.002') throw new BankFileError('not a pain.002 file');
  const report = obj(at(parseXml(xml), 'Document', 'CstmrPmtStsRpt'));
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
