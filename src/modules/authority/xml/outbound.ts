import { TP_CANCELAMENTO } from './events';
import type { InfEventoFields } from './events';
import { childOf, parseReply, valueOf } from './reply';
import type { SoapService } from './soap';
import { NFE_NS } from './xml-text';
import { canonicalText } from './xmldsig';

/*
 * The issuer's services of NF-e 4.00 (the state authority, or SVC-AN / SVC-RS in contingency):
 * NFeAutorizacao4 (enviNFe, indSinc 1), NFeRetAutorizacao4 (consReciNFe), NFeConsultaProtocolo4
 * (consSitNFe), NFeStatusServico4 (consStatServ), NFeInutilizacao4 (inutNFe) and the issuer's events
 * through NFeRecepcaoEvento4 (110111 cancelamento, 110110 carta de correção). Messages and readers
 * shared by the client and the local simulator; the replies are read in reply.ts.
 */

const wsdl = (name: string) => `http://www.portalfiscal.inf.br/nfe/wsdl/${name}`;

export const AUTORIZACAO: SoapService = {
  namespace: wsdl('NFeAutorizacao4'),
  operation: 'nfeAutorizacaoLote',
  wrapped: false,
  resultElement: 'retEnviNFe',
};
export const RET_AUTORIZACAO: SoapService = {
  namespace: wsdl('NFeRetAutorizacao4'),
  operation: 'nfeRetAutorizacaoLote',
  wrapped: false,
  resultElement: 'retConsReciNFe',
};
export const CONSULTA_PROTOCOLO: SoapService = {
  namespace: wsdl('NFeConsultaProtocolo4'),
  operation: 'nfeConsultaNF',
  wrapped: false,
  resultElement: 'retConsSitNFe',
};
export const STATUS_SERVICO: SoapService = {
  namespace: wsdl('NFeStatusServico4'),
  operation: 'nfeStatusServicoNF',
  wrapped: false,
  resultElement: 'retConsStatServ',
};
export const INUTILIZACAO: SoapService = {
  namespace: wsdl('NFeInutilizacao4'),
  operation: 'nfeInutilizacaoNF',
  wrapped: false,
  resultElement: 'retInutNFe',
};

export type OutboundService =
  'AUTORIZACAO' | 'RET_AUTORIZACAO' | 'CONSULTA_PROTOCOLO' | 'STATUS_SERVICO' | 'INUTILIZACAO' | 'RECEPCAO_EVENTO';

/** Paths of the services on an authority's host (the SVRS layout; the simulator serves the same). */
export const OUTBOUND_PATHS: Record<OutboundService, string> = {
  AUTORIZACAO: '/ws/NfeAutorizacao/NFeAutorizacao4.asmx',
  RET_AUTORIZACAO: '/ws/NfeRetAutorizacao/NFeRetAutorizacao4.asmx',
  CONSULTA_PROTOCOLO: '/ws/NfeConsulta/NfeConsulta4.asmx',
  STATUS_SERVICO: '/ws/NfeStatusServico/NfeStatusServico4.asmx',
  INUTILIZACAO: '/ws/nfeinutilizacao/nfeinutilizacao4.asmx',
  RECEPCAO_EVENTO: '/ws/recepcaoevento/recepcaoevento4.asmx',
};

/** 110111 cancelamento: the event type the DF-e reader knows too (events.ts). */
export { TP_CANCELAMENTO };
export const TP_CCE = '110110';
/** Cancelamento por substituição: an NFC-e authorized after all, replaced by the offline note the customer holds (chNFeRef). */
export const TP_CANCELAMENTO_SUBSTITUICAO = '110112';

/** The fixed condition-of-use text of the carta de correção (its xsd enumerates it). */
export const CCE_CONDITIONS =
  'A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N, de 15 de dezembro de 1970 e pode ser utilizada para regularizacao de erro ocorrido na emissao de documento fiscal, desde que o erro nao esteja relacionado com: I - as variaveis que determinam o valor do imposto tais como: base de calculo, aliquota, diferenca de preco, quantidade, valor da operacao ou da prestacao; II - a correcao de dados cadastrais que implique mudanca do remetente ou do destinatario; III - a data de emissao ou de saida.';

export function buildEnviNFe(signedNfe: string, idLote: string): string {
  return `<enviNFe xmlns="${NFE_NS}" versao="4.00"><idLote>${idLote}</idLote><indSinc>1</indSinc>${signedNfe.replace(/^<\?xml[^>]*>/, '')}</enviNFe>`;
}

export function buildConsSitNFe(tpAmb: string, accessKey: string): string {
  return `<consSitNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR</xServ><chNFe>${accessKey}</chNFe></consSitNFe>`;
}

export function buildConsStatServ(tpAmb: string, cUF: string): string {
  return `<consStatServ xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><cUF>${cUF}</cUF><xServ>STATUS</xServ></consStatServ>`;
}

export function buildConsReciNFe(tpAmb: string, receipt: string): string {
  return `<consReciNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><nRec>${receipt}</nRec></consReciNFe>`;
}

export interface ProtocolResult {
  tpAmb: string | null;
  accessKey: string | null;
  receivedAt: string | null;
  protocol: string | null;
  digest: string | null;
  cStat: string;
  xMotivo: string;
  /** The protNFe element's exact text (goes into nfeProc). */
  xml: string;
}

export interface AuthorizationReply {
  cStat: string;
  xMotivo: string;
  receivedAt: string | null;
  receipt: string | null;
  protocol: ProtocolResult | null;
}

export interface StatusReply {
  cStat: string;
  xMotivo: string;
  returnAt: string | null;
  observation: string | null;
}

export interface SituationReply {
  cStat: string;
  xMotivo: string;
  accessKey: string | null;
  protocol: ProtocolResult | null;
  /** retEvento of registered events (cancellation: cStat 101 at the situation level). */
  events: { tpEvento: string | null; cStat: string | null; protocol: string | null; sequence: number | null }[];
}

export interface VoidRequest {
  tpAmb: string;
  cUF: string;
  /** Two-digit year. */
  year: string;
  cnpj: string;
  model: number;
  series: number;
  first: number;
  last: number;
  justification: string;
}

export const voidId = (v: VoidRequest) =>
  `ID${v.cUF}${v.year}${v.cnpj}${String(v.model).padStart(2, '0')}${String(v.series).padStart(3, '0')}${String(v.first).padStart(9, '0')}${String(v.last).padStart(9, '0')}`;

/** infInut in canonical form (with the inherited namespace), what its signature digests. */
export function canonicalInfInut(v: VoidRequest): string {
  return (
    `<infInut xmlns="${NFE_NS}" Id="${voidId(v)}"><tpAmb>${v.tpAmb}</tpAmb><xServ>INUTILIZAR</xServ><cUF>${v.cUF}</cUF><ano>${v.year}</ano><CNPJ>${v.cnpj}</CNPJ>` +
    `<mod>${v.model}</mod><serie>${v.series}</serie><nNFIni>${v.first}</nNFIni><nNFFin>${v.last}</nNFFin><xJust>${canonicalText(v.justification)}</xJust></infInut>`
  );
}

/** The inutNFe around its signed infInut. */
export function buildInutNFe(canonicalInf: string, signature: string): string {
  return `<inutNFe xmlns="${NFE_NS}" versao="4.00">${canonicalInf.replace(` xmlns="${NFE_NS}"`, '')}${signature}</inutNFe>`;
}

export interface VoidReply {
  cStat: string;
  xMotivo: string;
  protocol: string | null;
  receivedAt: string | null;
  /** retInutNFe exact text. */
  xml: string;
}

export interface IssuerEvent {
  tpEvento: typeof TP_CANCELAMENTO | typeof TP_CCE | typeof TP_CANCELAMENTO_SUBSTITUICAO;
  cOrgao: string;
  tpAmb: string;
  cnpj: string;
  accessKey: string;
  at: string;
  sequence: number;
  /** Cancellation: the authorization protocol. */
  protocol?: string;
  /** xJust (cancellation) or xCorrecao (CC-e), plain ASCII. */
  text: string;
  /** Substitution (110112): the substitute NFC-e's key and the issuer's application version. */
  referencedKey?: string;
  appVersion?: string;
}

/** The detEvento content of an issuer's event, in canonical text. */
function issuerDetail(e: IssuerEvent): string {
  if (e.tpEvento === TP_CANCELAMENTO)
    return `<descEvento>Cancelamento</descEvento><nProt>${e.protocol}</nProt><xJust>${canonicalText(e.text)}</xJust>`;
  if (e.tpEvento === TP_CANCELAMENTO_SUBSTITUICAO)
    // e110112: the author is the issuer (tpAutor 1) of the UF that authorized the note (cOrgaoAutor).
    return (
      `<descEvento>Cancelamento por substituicao</descEvento><cOrgaoAutor>${e.cOrgao}</cOrgaoAutor><tpAutor>1</tpAutor>` +
      `<verAplic>${canonicalText(e.appVersion ?? '')}</verAplic><nProt>${e.protocol}</nProt><xJust>${canonicalText(e.text)}</xJust>` +
      `<chNFeRef>${e.referencedKey}</chNFeRef>`
    );
  return `<descEvento>Carta de Correcao</descEvento><xCorrecao>${canonicalText(e.text)}</xCorrecao><xCondUso>${CCE_CONDITIONS}</xCondUso>`;
}

/** An issuer's event as infEvento fields: signed and wrapped by events.ts's one writer (signedEvento, buildEnvEvento). */
export const issuerEventFields = (e: IssuerEvent): InfEventoFields => ({
  tpEvento: e.tpEvento,
  accessKey: e.accessKey,
  sequence: e.sequence,
  cOrgao: e.cOrgao,
  tpAmb: e.tpAmb,
  author: e.cnpj,
  at: e.at,
  detail: issuerDetail(e),
});

/** Reads a received inutNFe (simulator). */
export function readInutNFe(xml: string): VoidRequest & { id: string | null } {
  const inf = childOf(parseReply(xml), 'infInut');
  const n = (name: string) => Number(valueOf(inf, name) ?? 'NaN');
  return {
    id: inf?.attrs.Id ?? null,
    tpAmb: valueOf(inf, 'tpAmb') ?? '',
    cUF: valueOf(inf, 'cUF') ?? '',
    year: valueOf(inf, 'ano') ?? '',
    cnpj: valueOf(inf, 'CNPJ') ?? '',
    model: n('mod'),
    series: n('serie'),
    first: n('nNFIni'),
    last: n('nNFFin'),
    justification: valueOf(inf, 'xJust') ?? '',
  };
}
