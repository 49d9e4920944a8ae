import { expect } from 'chai';
import yazl from 'yazl';
import { brasiliaDateTime, buildProcEventoNFe, buildRetEvento, eventId } from '../../src/modules/authority/xml/events';
import { NFE_NS } from '../../src/modules/authority/xml/xml-text';
import { signEnveloped } from '../support/xml-crypto-signer';
import { api } from '../support/api';
import { DEFAULT_ISSUER_CNPJ } from '../support/nfe-builder';
import { testCertificate } from '../support/test-certificate';
import type { TestTenant } from '../support/tenant';
import { NFE } from './nfe-support';

/** ZIPs and NF-e events for the batch tests. */

export interface ZipEntry {
  name: string;
  content?: string | Buffer;
  directory?: boolean;
  compress?: boolean;
}

export function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.directory) zip.addEmptyDirectory(e.name);
    else
      zip.addBuffer(Buffer.isBuffer(e.content) ? e.content : Buffer.from(e.content ?? '', 'utf8'), e.name, {
        compress: e.compress ?? true,
      });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** Renames entries byte for byte (same length): names yazl itself refuses, such as `../`. */
export function renameEntries(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('same length only');
  const text = zip.toString('latin1');
  return Buffer.from(text.split(from).join(to), 'latin1');
}

/** Rewrites the uncompressed size of every central-directory record (a ZIP that lies about its sizes). */
export function lieAboutSizes(zip: Buffer, declared: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i >= 0; i = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4))
    out.writeUInt32LE(declared, i + 24);
  return out;
}

/** A registered issuer event (procEventoNFe): cancellation 110111 or CC-e 110110, signed by the issuer's test certificate. */
export function issuerEvent(
  accessKey: string,
  opts: { type?: '110111' | '110110'; sequence?: number; cStat?: string; tamper?: boolean; issuer?: string } = {},
): string {
  const type = opts.type ?? '110111';
  const sequence = opts.sequence ?? 1;
  const issuer = opts.issuer ?? DEFAULT_ISSUER_CNPJ;
  const cert = testCertificate(issuer, 'FORNECEDOR TESTE LTDA');
  const at = brasiliaDateTime(new Date());
  const det =
    type === '110111'
      ? `<descEvento>Cancelamento</descEvento><nProt>135250000000001</nProt><xJust>Cancelamento solicitado pelo emitente</xJust>`
      : `<descEvento>Carta de Correcao</descEvento><xCorrecao>Correcao do endereco de entrega numero ${sequence}</xCorrecao><xCondUso>A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N</xCondUso>`;
  let evento = signEnveloped(
    `<evento xmlns="${NFE_NS}" versao="1.00"><infEvento Id="${eventId(type, accessKey, sequence)}"><cOrgao>35</cOrgao><tpAmb>1</tpAmb><CNPJ>${issuer}</CNPJ>` +
      `<chNFe>${accessKey}</chNFe><dhEvento>${at}</dhEvento><tpEvento>${type}</tpEvento><nSeqEvento>${sequence}</nSeqEvento><verEvento>1.00</verEvento>` +
      `<detEvento versao="1.00">${det}</detEvento></infEvento></evento>`,
    'infEvento',
    { keyPem: cert.privateKeyPem, certPem: cert.certificatePem },
  );
  if (opts.tamper) evento = evento.replace('Cancelamento solicitado', 'Cancelamento alterado!');
  const ret = buildRetEvento({
    tpAmb: '1',
    verAplic: 'SP_EVENTOS',
    cStat: opts.cStat ?? '135',
    xMotivo: 'Evento registrado e vinculado a NF-e',
    accessKey,
    tpEvento: type,
    sequence,
    registeredAt: at,
    protocol: `1352500000${String(sequence).padStart(5, '0')}`,
  });
  return buildProcEventoNFe(evento, ret);
}

/** Polls GET of the job until it is DONE (or FAILED). */
export async function waitForJob(t: TestTenant, id: string, query = '', timeoutMs = 120_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api().get(`${NFE}/batch/${id}/${t.filialHashes[0]}${query}`).set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    if (res.body.status === 'DONE' || res.body.status === 'FAILED') return res.body;
    if (Date.now() > until) throw new Error(`batch ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Reads a whole text/event-stream response. */
export const sseText = (res: any, cb: (err: Error | null, body: string) => void) => {
  let data = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (data += c));
  res.on('end', () => cb(null, data));
};

export function parseSse(text: string): { event: string; data: any }[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('event:'))
    .map((block) => ({ event: /event: (.+)/.exec(block)![1], data: JSON.parse(/data: (.+)/.exec(block)![1]) }));
}
