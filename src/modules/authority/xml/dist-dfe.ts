import zlib from 'node:zlib';
import { AppError } from '../../../core/errors';
import { attrOf, childAt, descendants, readXml, textAt } from '../../fiscal-xml';
import type { XNode } from '../../fiscal-xml';
import { childOf, ReplyNode, valueOf } from './reply';
import { decodeText, escapeXml, NFE_NS, XmlReadError } from './xml-text';

/*
 * NFeDistribuicaoDFe, layout 1.01: the distDFeInt request and the retDistDFeInt reply, whose docZip
 * elements are base64(gzip(xml)) and are dispatched on the decoded root element (the `schema`
 * attribute names versions that change over time).
 */

export const NSU_ZERO = '000000000000000';
export const padNsu = (nsu: string | number | bigint) => String(nsu).replace(/\D/g, '').padStart(15, '0').slice(-15);
export const nsuToBigInt = (nsu: string) => BigInt(nsu || '0');

export type DistQuery = { kind: 'distNSU'; ultNSU: string } | { kind: 'consNSU'; nsu: string } | { kind: 'consChNFe'; accessKey: string };

export interface DistRequest {
  /** 1 production, 2 homologação. */
  tpAmb: '1' | '2';
  /** IBGE code of the interested party's UF (optional in the layout, sent like the mainstream clients do). */
  cUFAutor?: string | null;
  cnpj: string;
  query: DistQuery;
}

export function buildDistDFeInt(r: DistRequest): string {
  const party = r.cnpj.length === 11 ? `<CPF>${r.cnpj}</CPF>` : `<CNPJ>${r.cnpj}</CNPJ>`;
  const q = r.query;
  const query =
    q.kind === 'distNSU'
      ? `<distNSU><ultNSU>${padNsu(q.ultNSU)}</ultNSU></distNSU>`
      : q.kind === 'consNSU'
        ? `<consNSU><NSU>${padNsu(q.nsu)}</NSU></consNSU>`
        : `<consChNFe><chNFe>${q.accessKey}</chNFe></consChNFe>`;
  return `<distDFeInt xmlns="${NFE_NS}" versao="1.01"><tpAmb>${r.tpAmb}</tpAmb>${r.cUFAutor ? `<cUFAutor>${r.cUFAutor}</cUFAutor>` : ''}${party}${query}</distDFeInt>`;
}

/** Reads a distDFeInt (the simulator's side), the message readSoapBody found in the request. */
export function readDistDFeInt(el: ReplyNode): DistRequest {
  const distNSU = childOf(el, 'distNSU');
  const consNSU = childOf(el, 'consNSU');
  const consChNFe = childOf(el, 'consChNFe');
  const query: DistQuery | null = distNSU
    ? { kind: 'distNSU', ultNSU: valueOf(distNSU, 'ultNSU') ?? '' }
    : consNSU
      ? { kind: 'consNSU', nsu: valueOf(consNSU, 'NSU') ?? '' }
      : consChNFe
        ? { kind: 'consChNFe', accessKey: valueOf(consChNFe, 'chNFe') ?? '' }
        : null;
  if (!query) throw new Error('distDFeInt without distNSU, consNSU or consChNFe');
  return {
    tpAmb: valueOf(el, 'tpAmb') === '2' ? '2' : '1',
    cUFAutor: valueOf(el, 'cUFAutor'),
    cnpj: valueOf(el, 'CNPJ') ?? valueOf(el, 'CPF') ?? '',
    query,
  };
}

// ---- documents inside docZip ----

export interface NfeSummary {
  kind: 'resNFe';
  accessKey: string;
  issuerDocument: string;
  issuerName: string;
  issuerStateRegistration: string | null;
  issuedAt: string;
  /** 0 entrada, 1 saída (from the issuer's point of view). */
  operationType: string;
  total: string;
  digestValue: string | null;
  receivedAt: string | null;
  protocol: string | null;
  /** 1 authorized, 2 denied, 3 cancelled. */
  situation: string;
}

export interface NfeDocument {
  kind: 'procNFe';
  accessKey: string;
  /** The nfeProc exactly as decoded (signed: never re-serialised). */
  xml: string;
}

export interface EventSummary {
  kind: 'resEvento';
  accessKey: string;
  authorDocument: string | null;
  eventType: string;
  sequence: number;
  description: string | null;
  eventAt: string | null;
  protocol: string | null;
  receivedAt: string | null;
}

export interface EventDocument {
  kind: 'procEventoNFe';
  accessKey: string;
  authorDocument: string | null;
  eventType: string;
  sequence: number;
  description: string | null;
  eventAt: string | null;
  /** The authority's registration of the event (retEvento). */
  cStat: string | null;
  protocol: string | null;
  registeredAt: string | null;
  /** Justification of a cancellation or of "operação não realizada". */
  justification: string | null;
  /** 610600: the key of the CT-e authorized for the NF-e (detEvento/CTe/chCTe). */
  cteKey: string | null;
  xml: string;
}

export interface UnknownDocument {
  kind: 'unknown';
  root: string;
  xml: string;
}

export type DfeDocumentBody = NfeSummary | NfeDocument | EventSummary | EventDocument | UnknownDocument;
export type DfeDocument = DfeDocumentBody & {
  /** NSU of the document (absent on some consChNFe replies since NT 2014.002 v1.15). */
  nsu: string | null;
  /** The `schema` attribute as sent (e.g. resNFe_v1.01.xsd). */
  schema: string;
};

export function unzipDoc(base64: string): string {
  return decodeText(zlib.gunzipSync(Buffer.from(base64.replace(/\s+/g, ''), 'base64')));
}

export function zipDoc(xml: string): string {
  return zlib.gzipSync(Buffer.from(xml, 'utf8')).toString('base64');
}

const seq = (s: string | null) => Number(s ?? '1') || 1;

/** The document's tree; what is not well-formed fails as the authority's other unreadable XML does (XmlReadError). */
function documentTree(xml: string): { name: string; root: XNode } {
  let tree: Record<string, unknown>;
  try {
    tree = readXml(xml);
  } catch (err) {
    if (err instanceof AppError && err.code === 'MALFORMED_XML')
      throw new XmlReadError(err.message.replace('The XML is not well-formed', 'XML is not well-formed'));
    throw err;
  }
  const name = Object.keys(tree)[0];
  return { name, root: childAt(tree, name) ?? {} };
}

/** Text of a child; absent or empty → null (a repeated one reads as its first). */
const text = (node: XNode | null | undefined, name: string) => textAt(node, name);

/** One decoded document (a docZip's content, an uploaded event), by its root element. */
export function readDfeDocument(xml: string): DfeDocumentBody {
  const { name, root } = documentTree(xml);
  switch (name) {
    case 'resNFe':
      return {
        kind: 'resNFe',
        accessKey: text(root, 'chNFe') ?? '',
        issuerDocument: text(root, 'CNPJ') ?? text(root, 'CPF') ?? '',
        issuerName: text(root, 'xNome') ?? '',
        issuerStateRegistration: text(root, 'IE'),
        issuedAt: text(root, 'dhEmi') ?? '',
        operationType: text(root, 'tpNF') ?? '1',
        total: text(root, 'vNF') ?? '0',
        digestValue: text(root, 'digVal'),
        receivedAt: text(root, 'dhRecbto'),
        protocol: text(root, 'nProt'),
        situation: text(root, 'cSitNFe') ?? '1',
      };
    case 'nfeProc': {
      const infNFe = descendants(root, 'infNFe')[0];
      const fromId = attrOf(infNFe, 'Id')?.replace(/^NFe/, '') ?? '';
      const prot = childAt(root, 'protNFe');
      return { kind: 'procNFe', accessKey: (prot && descendants(prot, 'chNFe').map((n) => textAt(n))[0]) || fromId, xml };
    }
    case 'resEvento':
      return {
        kind: 'resEvento',
        accessKey: text(root, 'chNFe') ?? '',
        authorDocument: text(root, 'CNPJ') ?? text(root, 'CPF'),
        eventType: text(root, 'tpEvento') ?? '',
        sequence: seq(text(root, 'nSeqEvento')),
        description: text(root, 'xEvento'),
        eventAt: text(root, 'dhEvento'),
        protocol: text(root, 'nProt'),
        receivedAt: text(root, 'dhRecbto'),
      };
    case 'procEventoNFe': {
      // as a depth-first search would: the infEvento of evento, of retEvento, else the document's first
      const inf = descendants(childAt(root, 'evento') ?? root, 'infEvento')[0];
      const ret = descendants(childAt(root, 'retEvento') ?? root, 'infEvento')[0];
      const det = childAt(inf, 'detEvento');
      return {
        kind: 'procEventoNFe',
        accessKey: text(inf, 'chNFe') ?? '',
        authorDocument: text(inf, 'CNPJ') ?? text(inf, 'CPF'),
        eventType: text(inf, 'tpEvento') ?? '',
        sequence: seq(text(inf, 'nSeqEvento')),
        description: text(det, 'descEvento') ?? text(ret, 'xEvento'),
        eventAt: text(inf, 'dhEvento'),
        cStat: text(ret, 'cStat'),
        protocol: text(ret, 'nProt'),
        registeredAt: text(ret, 'dhRegEvento'),
        justification: text(det, 'xJust'),
        cteKey: (det && descendants(det, 'chCTe').map((n) => textAt(n))[0]) ?? null,
        xml,
      };
    }
    default:
      return { kind: 'unknown', root: name ?? '', xml };
  }
}

// ---- the reply ----

export interface DistResult {
  tpAmb: string | null;
  verAplic: string | null;
  cStat: string;
  xMotivo: string;
  dhResp: string | null;
  /** Optional in practice although the layout requires them (137 to consChNFe omits both). */
  ultNSU: string | null;
  maxNSU: string | null;
  documents: DfeDocument[];
}

export interface DistReply {
  cStat: string;
  xMotivo: string;
  ultNSU?: string | null;
  maxNSU?: string | null;
  dhResp: string;
  tpAmb: string;
  verAplic: string;
  documents?: { nsu: string | null; schema: string; xml: string }[];
}

/** Builds a retDistDFeInt (the simulator's side), documents gzip+base64 encoded. */
export function buildRetDistDFeInt(r: DistReply): string {
  const docs = r.documents?.length
    ? `<loteDistDFeInt>${r.documents.map((d) => `<docZip${d.nsu ? ` NSU="${d.nsu}"` : ''} schema="${d.schema}">${zipDoc(d.xml)}</docZip>`).join('')}</loteDistDFeInt>`
    : '';
  const nsus = r.ultNSU != null ? `<ultNSU>${r.ultNSU}</ultNSU><maxNSU>${r.maxNSU ?? NSU_ZERO}</maxNSU>` : '';
  return `<retDistDFeInt xmlns="${NFE_NS}" versao="1.01"><tpAmb>${r.tpAmb}</tpAmb><verAplic>${r.verAplic}</verAplic><cStat>${r.cStat}</cStat><xMotivo>${escapeXml(r.xMotivo)}</xMotivo><dhResp>${r.dhResp}</dhResp>${nsus}${docs}</retDistDFeInt>`;
}
