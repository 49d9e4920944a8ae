import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canValidateXsd, XSD_DIR, xsdErrors } from './conformance-support';

/*
 * The schemas of the fiscal files served besides the nfeProc: the event ones of the fixtures (v1.00,
 * beside PL_010: procEventoCancNFe, procCCeNFe, procEventoNFe) and, the fixtures carrying none,
 * procInutNFe written from the manual (tests/invoices/xsd) over PL_010's own basic types and XMLDSig.
 */

const inutDir = (() => {
  let dir: string | null = null;
  return () => {
    if (dir) return dir;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inut-xsd-'));
    for (const f of ['tiposBasico_v4.00.xsd', 'xmldsig-core-schema_v1.01.xsd']) fs.copyFileSync(path.join(XSD_DIR, f), path.join(dir, f));
    for (const f of ['leiauteInutNFe_v4.00.xsd', 'procInutNFe_v4.00.xsd'])
      fs.copyFileSync(path.join(__dirname, 'xsd', f), path.join(dir, f));
    return dir;
  };
})();

export const canValidateFiles = canValidateXsd && fs.existsSync(path.join(XSD_DIR, '..', 'procEventoCancNFe_v1.00.xsd'));

/** xmllint of a procEventoNFe against the event's own schema (cancellation, CC-e) or the generic one. */
export const procEventoErrors = (xml: string, kind: 'cancellation' | 'correction' | 'generic') =>
  xsdErrors(
    xml,
    path.join(
      '..',
      kind === 'cancellation' ? 'procEventoCancNFe_v1.00.xsd' : kind === 'correction' ? 'procCCeNFe_v1.00.xsd' : 'procEventoNFe_v1.00.xsd',
    ),
  );

/** xmllint of a procInutNFe. */
export const procInutErrors = (xml: string) => xsdErrors(xml, path.relative(XSD_DIR, path.join(inutDir(), 'procInutNFe_v4.00.xsd')));
