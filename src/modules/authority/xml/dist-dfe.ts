import type { Element } from '@xmldom/xmldom';
import zlib from 'node:zlib';
import { child, childText, decodeText, deepText, escapeXml, findFirst, NFE_NS, parseRoot } from './dom';

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

/** Reads a distDFeInt (the simulator's side). */
export function readDistDFeInt(el: Element): DistRequest {
  const distNSU = child(el, 'distNSU');
  const consNSU = child(el, 'consNSU');
  const consChNFe = child(el, 'consChNFe');
  const query: DistQuery | null = distNSU
    ? { kind: 'distNSU', ultNSU: childText(distNSU, 'ultNSU') ?? '' }
    : consNSU
      ? { kind: 'consNSU', nsu: childText(consNSU, 'NSU') ?? '' }
      : consChNFe
        ? { kind: 'consChNFe', accessKey: childText(consChNFe, 'chNFe') ?? '' }
        : null;
  if (!query) throw new Error('distDFeInt without distNSU, consNSU or consChNFe');
  return {
    tpAmb: childText(el, 'tpAmb') === '2' ? '2' : '1',
    cUFAutor: childText(el, 'cUFAutor'),
    cnpj: childText(el, 'CNPJ') ?? childText(el, 'CPF') ?? '',
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

/** One decoded document, by its root element. */
export function readDfeDocument(xml: string): DfeDocumentBody {
  const root = parseRoot(xml);
  switch (root.localName) {
    case 'resNFe':
      return {
        kind: 'resNFe',
        accessKey: childText(root, 'chNFe') ?? '',
        issuerDocument: childText(root, 'CNPJ') ?? childText(root, 'CPF') ?? '',
        issuerName: childText(root, 'xNome') ?? '',
        issuerStateRegistration: childText(root, 'IE'),
        issuedAt: childText(root, 'dhEmi') ?? '',
        operationType: childText(root, 'tpNF') ?? '1',
        total: childText(root, 'vNF') ?? '0',
        digestValue: childText(root, 'digVal'),
        receivedAt: childText(root, 'dhRecbto'),
        protocol: childText(root, 'nProt'),
        situation: childText(root, 'cSitNFe') ?? '1',
      };
    case 'nfeProc': {
      const infNFe = findFirst(root, 'infNFe');
      const fromId = infNFe?.getAttribute('Id')?.replace(/^NFe/, '') ?? '';
      return { kind: 'procNFe', accessKey: deepText(findFirst(root, 'protNFe'), 'chNFe') ?? fromId, xml };
    }
    case 'resEvento':
      return {
        kind: 'resEvento',
        accessKey: childText(root, 'chNFe') ?? '',
        authorDocument: childText(root, 'CNPJ') ?? childText(root, 'CPF'),
        eventType: childText(root, 'tpEvento') ?? '',
        sequence: seq(childText(root, 'nSeqEvento')),
        description: childText(root, 'xEvento'),
        eventAt: childText(root, 'dhEvento'),
        protocol: childText(root, 'nProt'),
        receivedAt: childText(root, 'dhRecbto'),
      };
    case 'procEventoNFe': {
      const inf = findFirst(child(root, 'evento') ?? root, 'infEvento');
      const ret = findFirst(child(root, 'retEvento') ?? root, 'infEvento');
      const det = inf ? child(inf, 'detEvento') : undefined;
      return {
        kind: 'procEventoNFe',
        accessKey: childText(inf, 'chNFe') ?? '',
        authorDocument: childText(inf, 'CNPJ') ?? childText(inf, 'CPF'),
        eventType: childText(inf, 'tpEvento') ?? '',
        sequence: seq(childText(inf, 'nSeqEvento')),
        description: childText(det, 'descEvento') ?? childText(ret, 'xEvento'),
        eventAt: childText(inf, 'dhEvento'),
        cStat: childText(ret, 'cStat'),
        protocol: childText(ret, 'nProt'),
        registeredAt: childText(ret, 'dhRegEvento'),
        justification: childText(det, 'xJust'),
        cteKey: deepText(det, 'chCTe'),
        xml,
      };
    }
    default:
      return { kind: 'unknown', root: root.localName ?? '', xml };
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

export const readDistRequestDocument = (xml: string) => readDistDFeInt(parseRoot(xml));
