import { fiscalDateTime } from '../../../core/business-date';
import { childOf, childrenOf, parseReply, valueOf } from './reply';
import { escapeXml, NFE_NS } from './xml-text';
import { canonicalText, signatureFor, Signer, signerOf, SigningCredentials } from './xmldsig';

/*
 * Recipient manifestation (Manifestação do Destinatário) through NFeRecepcaoEvento 4.00: envEvento
 * 1.00 with signed evento elements, and the retEnvEvento reply whose per-event cStat is what counts
 * (the lot's 128 only says the lot was processed).
 */

export type ManifestationEvent = 'CIENCIA' | 'CONFIRMACAO' | 'DESCONHECIMENTO' | 'NAO_REALIZADA';

export const EVENT_TYPES: Record<ManifestationEvent, { tpEvento: string; descEvento: string }> = {
  CONFIRMACAO: { tpEvento: '210200', descEvento: 'Confirmacao da Operacao' },
  CIENCIA: { tpEvento: '210210', descEvento: 'Ciencia da Operacao' },
  DESCONHECIMENTO: { tpEvento: '210220', descEvento: 'Desconhecimento da Operacao' },
  NAO_REALIZADA: { tpEvento: '210240', descEvento: 'Operacao nao Realizada' },
};

export const eventOfType = (tpEvento: string): ManifestationEvent | null =>
  (Object.keys(EVENT_TYPES) as ManifestationEvent[]).find((k) => EVENT_TYPES[k].tpEvento === tpEvento) ?? null;

/** Cancellation by the issuer (Cancelamento): distributed to the recipient without manifestation. */
export const TP_CANCELAMENTO = '110111';
/** "CT-e autorizado para a NF-e": the authority records that a CT-e carrying the NF-e was authorized. */
export const TP_CTE_AUTORIZADO = '610600';

/** Id of infEvento: "ID" + tpEvento + key + nSeqEvento on two digits (pattern ID[0-9]{52}). */
export const eventId = (tpEvento: string, accessKey: string, sequence: number) =>
  `ID${tpEvento}${accessKey}${String(sequence).padStart(2, '0')}`;

/** Date-time as TDateTimeUTC wants it (no fraction, no "Z", an explicit offset): the fiscal clock of core/business-date.ts. */
export const brasiliaDateTime = (at: Date = new Date()): string => fiscalDateTime(at);

/** Plain ASCII for the free text of an event: some authorities reject accents and control characters. */
export function asciiText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface EventInput {
  event: ManifestationEvent;
  accessKey: string;
  /** 1 production, 2 homologação. */
  tpAmb: '1' | '2';
  /** The recipient (certificate holder): CNPJ, or CPF with 11 digits. */
  recipientDocument: string;
  justification?: string | null;
  sequence?: number;
  at?: Date;
}

/** What an infEvento carries, the event's own detEvento content apart (already canonical text). */
export interface InfEventoFields {
  tpEvento: string;
  accessKey: string;
  sequence: number;
  cOrgao: string;
  tpAmb: string;
  /** The author: a CNPJ, or a CPF (11 digits). */
  author: string;
  /** dhEvento as written. */
  at: string;
  /** detEvento's children in canonical text (the builder escapes with canonicalText). */
  detail: string;
}

/** infEvento in canonical form (the inherited namespace declared on it): what its signature digests. */
export function canonicalInfEvento(f: InfEventoFields): string {
  const author = f.author.length === 11 ? `<CPF>${f.author}</CPF>` : `<CNPJ>${f.author}</CNPJ>`;
  return (
    `<infEvento xmlns="${NFE_NS}" Id="${eventId(f.tpEvento, f.accessKey, f.sequence)}"><cOrgao>${f.cOrgao}</cOrgao><tpAmb>${f.tpAmb}</tpAmb>${author}` +
    `<chNFe>${f.accessKey}</chNFe><dhEvento>${f.at}</dhEvento><tpEvento>${f.tpEvento}</tpEvento><nSeqEvento>${f.sequence}</nSeqEvento>` +
    `<verEvento>1.00</verEvento><detEvento versao="1.00">${f.detail}</detEvento></infEvento>`
  );
}

/**
 * The signed evento, a standalone document in the NF-e namespace (the form that is signed and sent):
 * the one writer of every event the service and the simulator sign (manifestation, the issuer's
 * 110110/110111/110112 through outbound.ts's issuerEventFields, the simulator's 110111/610600).
 */
export function signedEvento(f: InfEventoFields, signer: Signer): string {
  const canonical = canonicalInfEvento(f);
  const { signature } = signatureFor(eventId(f.tpEvento, f.accessKey, f.sequence), canonical, signer);
  return `<evento xmlns="${NFE_NS}" versao="1.00">${canonical.replace(` xmlns="${NFE_NS}"`, '')}${signature}</evento>`;
}

/** The lot of NFeRecepcaoEvento4 around signed eventos, inserted verbatim: each keeps its namespace declaration, verified as the standalone text it was signed as. */
export function buildEnvEvento(eventos: string, idLote: string): string {
  return `<envEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${idLote}</idLote>${eventos}</envEvento>`;
}

/** The recipient's manifestation as infEvento fields (cOrgao 91: the national environment). */
export function manifestationFields(e: EventInput): InfEventoFields {
  const { tpEvento, descEvento } = EVENT_TYPES[e.event];
  // xJust exists only in 210220 (optional) and 210240 (required); the client sends it for 210240 only.
  const just =
    e.event === 'NAO_REALIZADA' && e.justification ? `<xJust>${canonicalText(asciiText(e.justification).slice(0, 255))}</xJust>` : '';
  return {
    tpEvento,
    accessKey: e.accessKey,
    sequence: e.sequence ?? 1,
    cOrgao: '91',
    tpAmb: e.tpAmb,
    author: e.recipientDocument,
    at: brasiliaDateTime(e.at),
    detail: `<descEvento>${descEvento}</descEvento>${just}`,
  };
}

/** Signs one evento and puts it in a lot; the signed text goes in verbatim (no re-serialisation). */
export function buildSignedEnvEvento(
  e: EventInput,
  credentials: SigningCredentials | Signer,
  idLote: string,
): { envEvento: string; evento: string } {
  const signer = 'key' in credentials ? credentials : signerOf(credentials.keyPem, credentials.certPem);
  const evento = signedEvento(manifestationFields(e), signer);
  return { evento, envEvento: buildEnvEvento(evento, idLote) };
}

export interface EventResult {
  cStat: string;
  xMotivo: string;
  accessKey: string | null;
  tpEvento: string | null;
  xEvento: string | null;
  sequence: number | null;
  registeredAt: string | null;
  protocol: string | null;
  recipientDocument: string | null;
}

export interface EnvEventoResult {
  idLote: string | null;
  tpAmb: string | null;
  verAplic: string | null;
  cStat: string;
  xMotivo: string;
  events: EventResult[];
}

/** A received evento as the simulator reads it. */
export interface ReceivedEvento {
  id: string | null;
  cOrgao: string | null;
  tpAmb: string | null;
  authorDocument: string | null;
  accessKey: string;
  eventAt: string | null;
  tpEvento: string;
  sequence: number;
  descEvento: string | null;
  justification: string | null;
  /** The evento element's exact text (signed). */
  xml: string;
}

/** The eventos of an envEvento (the simulator's side), each with its exact text for signature checks and archiving. */
export function readEnvEvento(envEventoXml: string): { idLote: string | null; eventos: ReceivedEvento[] } {
  const root = parseReply(envEventoXml);
  return {
    idLote: valueOf(root, 'idLote'),
    eventos: childrenOf(root, 'evento').map((ev) => {
      const inf = childOf(ev, 'infEvento');
      const det = childOf(inf, 'detEvento');
      return {
        id: inf?.attrs.Id ?? null,
        cOrgao: valueOf(inf, 'cOrgao'),
        tpAmb: valueOf(inf, 'tpAmb'),
        authorDocument: valueOf(inf, 'CNPJ') ?? valueOf(inf, 'CPF'),
        accessKey: valueOf(inf, 'chNFe') ?? '',
        eventAt: valueOf(inf, 'dhEvento'),
        tpEvento: valueOf(inf, 'tpEvento') ?? '',
        sequence: Number(valueOf(inf, 'nSeqEvento') ?? '0'),
        descEvento: valueOf(det, 'descEvento'),
        justification: valueOf(det, 'xJust'),
        xml: envEventoXml.slice(ev.start, ev.end),
      };
    }),
  };
}

export interface RetEventoInput {
  tpAmb: string;
  verAplic: string;
  cStat: string;
  xMotivo: string;
  accessKey?: string | null;
  tpEvento?: string | null;
  xEvento?: string | null;
  sequence?: number | null;
  recipientDocument?: string | null;
  registeredAt: string;
  protocol?: string | null;
}

/** One retEvento (the simulator's answer for one event; also the second half of a procEventoNFe). */
export function buildRetEvento(r: RetEventoInput): string {
  const dest = r.recipientDocument
    ? r.recipientDocument.length === 11
      ? `<CPFDest>${r.recipientDocument}</CPFDest>`
      : `<CNPJDest>${r.recipientDocument}</CNPJDest>`
    : '';
  return (
    `<retEvento versao="1.00"><infEvento><tpAmb>${r.tpAmb}</tpAmb><verAplic>${r.verAplic}</verAplic><cOrgao>91</cOrgao>` +
    `<cStat>${r.cStat}</cStat><xMotivo>${escapeXml(r.xMotivo)}</xMotivo>` +
    (r.accessKey ? `<chNFe>${r.accessKey}</chNFe>` : '') +
    (r.tpEvento ? `<tpEvento>${r.tpEvento}</tpEvento>` : '') +
    (r.xEvento ? `<xEvento>${escapeXml(r.xEvento)}</xEvento>` : '') +
    (r.sequence ? `<nSeqEvento>${r.sequence}</nSeqEvento>` : '') +
    dest +
    `<dhRegEvento>${r.registeredAt}</dhRegEvento>` +
    (r.protocol ? `<nProt>${r.protocol}</nProt>` : '') +
    `</infEvento></retEvento>`
  );
}

export function buildRetEnvEvento(r: {
  idLote: string;
  tpAmb: string;
  verAplic: string;
  cStat: string;
  xMotivo: string;
  retEventos: string[];
}): string {
  return (
    `<retEnvEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${r.idLote}</idLote><tpAmb>${r.tpAmb}</tpAmb><verAplic>${r.verAplic}</verAplic>` +
    `<cOrgao>91</cOrgao><cStat>${r.cStat}</cStat><xMotivo>${escapeXml(r.xMotivo)}</xMotivo>${r.retEventos.join('')}</retEnvEvento>`
  );
}

/** procEventoNFe = the signed evento + its retEvento (what the authority distributes and archives). */
export function buildProcEventoNFe(eventoXml: string, retEventoXml: string): string {
  return `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${eventoXml}${retEventoXml}</procEventoNFe>`;
}
