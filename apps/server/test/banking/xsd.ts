/** XSD validation of generated ISO 20022 files with xmllint compiled to WASM (no system dependency). */
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

export const ISO_FIXTURES = new URL('../../../../fixtures/iso20022/', import.meta.url);
export const isoFixture = (path: string) => readFileSync(new URL(path, ISO_FIXTURES), 'utf8');

/** Validates `xml` against `xsd/<schema>`; answers the error messages (empty when valid). */
export async function xsdErrors(xml: string, schema = 'pain.001.001.09.ch.03.xsd'): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents: xml }],
    schema: [{ fileName: schema, contents: isoFixture(`xsd/${schema}`) }],
  });
  return result.valid ? [] : result.errors.map((error) => error.message);
}

/** A pain.002 transaction line: [end-to-end id, TxSts, reason code?]. */
export type Pain002Line = [string, string, string?];

/**
 * A pain.002 status report as a bank would send it (test helper, also used by the import tests):
 * `txs` go into one block B1 without a block status; `blocks` write OrgnlPmtInfAndSts blocks with
 * their own PmtInfSts and StsRsnInf (and lines, possibly none). `groupReason` adds a group StsRsnInf.
 */
export function pain002(input: {
  version: string;
  original: string;
  group: string;
  txs?: Pain002Line[];
  groupReason?: string;
  blocks?: { id: string; status?: string; reason?: string; txs?: Pain002Line[] }[];
  messageId?: string;
}): string {
  const ns = `urn:iso:std:iso:20022:tech:xsd:pain.002.001.${input.version}`;
  const lines = (txs: Pain002Line[]) =>
    txs
      .map(
        ([e2e, status, reason]) =>
          `<TxInfAndSts><OrgnlEndToEndId>${e2e}</OrgnlEndToEndId><TxSts>${status}</TxSts>${
            reason ? `<StsRsnInf><Rsn><Cd>${reason}</Cd></Rsn><AddtlInf>IBAN wrong</AddtlInf></StsRsnInf>` : ''
          }</TxInfAndSts>`,
      )
      .join('');
  const reasonInfo = (code: string | undefined, text: string) => (code ? `<StsRsnInf><Rsn><Cd>${code}</Cd></Rsn><AddtlInf>${text}</AddtlInf></StsRsnInf>` : '');
  const blocks = input.blocks
    ? input.blocks
        .map(
          (block) =>
            `<OrgnlPmtInfAndSts><OrgnlPmtInfId>${block.id}</OrgnlPmtInfId>${block.status ? `<PmtInfSts>${block.status}</PmtInfSts>` : ''}${reasonInfo(
              block.reason,
              'Block refused',
            )}${lines(block.txs ?? [])}</OrgnlPmtInfAndSts>`,
        )
        .join('')
    : `<OrgnlPmtInfAndSts><OrgnlPmtInfId>B1</OrgnlPmtInfId>${lines(input.txs ?? [])}</OrgnlPmtInfAndSts>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="${ns}"><CstmrPmtStsRpt><GrpHdr><MsgId>${input.messageId ?? 'STS-1'}</MsgId><CreDtTm>2025-12-01T08:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>${input.original}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId>${input.group ? `<GrpSts>${input.group}</GrpSts>` : ''}${reasonInfo(
    input.groupReason,
    'File refused',
  )}</OrgnlGrpInfAndSts>
${blocks}</CstmrPmtStsRpt></Document>`;
}

/** One booked entry of a generated camt.054: money in (CRDT) or out (DBIT) with its details. */
export interface CamtEntrySpec {
  direction: 'CRDT' | 'DBIT';
  amount: string;
  /** AcctSvcrRef: the bank's unique reference (dedup key). */
  bankRef: string;
  date?: string;
  currency?: string;
  endToEndId?: string;
  /** The other party: the debtor of a credit, the creditor of a debit. */
  name?: string;
  iban?: string;
  /** Structured creditor reference (QRR when 27 digits, else SCOR). */
  reference?: string;
}

/**
 * A camt.054.001.08 notification for account `iban` with one entry (and one transaction detail) per
 * spec, valid against camt.054.001.08.xsd.
 */
export function camt054(messageId: string, iban: string, entries: CamtEntrySpec[]): string {
  const body = entries
    .map((e) => {
      const currency = e.currency ?? 'CHF';
      const date = e.date ?? '2025-11-25';
      const party = e.direction === 'CRDT' ? 'Dbtr' : 'Cdtr';
      const parties =
        e.name || e.iban
          ? `<RltdPties>${e.name ? `<${party}><Pty><Nm>${e.name}</Nm></Pty></${party}>` : ''}${e.iban ? `<${party}Acct><Id><IBAN>${e.iban}</IBAN></Id></${party}Acct>` : ''}</RltdPties>`
          : '';
      const type = e.reference && /^\d{27}$/.test(e.reference) ? '<Prtry>QRR</Prtry>' : '<Cd>SCOR</Cd>';
      const remittance = e.reference ? `<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry>${type}</CdOrPrtry></Tp><Ref>${e.reference}</Ref></CdtrRefInf></Strd></RmtInf>` : '';
      return `<Ntry><Amt Ccy="${currency}">${e.amount}</Amt><CdtDbtInd>${e.direction}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>${date}</Dt></BookgDt><ValDt><Dt>${date}</Dt></ValDt><AcctSvcrRef>${e.bankRef}</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${e.direction === 'CRDT' ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>${e.endToEndId ?? 'NOTPROVIDED'}</EndToEndId></Refs><Amt Ccy="${currency}">${e.amount}</Amt><CdtDbtInd>${e.direction}</CdtDbtInd>
${parties}${remittance}</TxDtls></NtryDtls></Ntry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2025-11-25T18:00:00</CreDtTm></GrpHdr>
<Ntfctn><Id>${messageId}-1</Id><CreDtTm>2025-11-25T18:00:00</CreDtTm><Acct><Id><IBAN>${iban}</IBAN></Id></Acct>
${body}
</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}
