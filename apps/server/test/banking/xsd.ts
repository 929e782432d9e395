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
