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

/** A pain.002 status report as a bank would send it (test helper, also used by the import tests). */
export function pain002(input: { version: string; original: string; group: string; txs: [string, string, string?][] }): string {
  const ns = `urn:iso:std:iso:20022:tech:xsd:pain.002.001.${input.version}`;
  const txs = input.txs
    .map(
      ([e2e, status, reason]) =>
        `<TxInfAndSts><OrgnlEndToEndId>${e2e}</OrgnlEndToEndId><TxSts>${status}</TxSts>${
          reason ? `<StsRsnInf><Rsn><Cd>${reason}</Cd></Rsn><AddtlInf>IBAN wrong</AddtlInf></StsRsnInf>` : ''
        }</TxInfAndSts>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="${ns}"><CstmrPmtStsRpt><GrpHdr><MsgId>STS-1</MsgId><CreDtTm>2025-12-01T08:00:00</CreDtTm></GrpHdr>
<OrgnlGrpInfAndSts><OrgnlMsgId>${input.original}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId><GrpSts>${input.group}</GrpSts></OrgnlGrpInfAndSts>
<OrgnlPmtInfAndSts><OrgnlPmtInfId>B1</OrgnlPmtInfId>${txs}</OrgnlPmtInfAndSts></CstmrPmtStsRpt></Document>`;
}
