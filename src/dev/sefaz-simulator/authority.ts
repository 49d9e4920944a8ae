import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import {
  brasiliaDateTime,
  buildProcEventoNFe,
  buildRetDistDFeInt,
  buildRetEnvEvento,
  buildRetEvento,
  canonicalText,
  DistRequest,
  escapeXml,
  EVENT_TYPES,
  eventId,
  eventOfType,
  NFE_NS,
  NSU_ZERO,
  padNsu,
  readEnvEvento,
  ReceivedEvento,
  Signer,
  signedEvento,
  signerOf,
  SigningCredentials,
  TP_CANCELAMENTO,
  verifyEnvelopedSignatures,
} from '../../modules/authority';
import { attrOf, childAt, readXml, textAt } from '../../modules/fiscal-xml';
import { protocolNumber } from './nfe-generator';
import { firstDescendant } from './request-tree';
import { certificateCnpj, StateFile } from './state-file';

/*
 * The authority's rules, without the network: per-recipient NSU streams, at most 50 documents per
 * reply, the 1-hour rules that end in 656, summaries until the recipient manifests and the full
 * document released (as a new NSU) by ciência, confirmação or operação não realizada, events
 * answered 135/573/596/… as the national environment does (protocol notes §3–§4).
 */

const HOUR = 3600_000;
const PAGE = 50;
const POINT_LOOKUPS_PER_HOUR = 20;
const VER_APLIC = 'SIMULADOR_AN_1.0';
/** Author of the authority's own events (610600), as the national environment signs them. */
const AUTHORITY_CNPJ = '33683111000107';

const SCHEMA = {
  resNFe: 'resNFe_v1.01.xsd',
  procNFe: 'procNFe_v4.00.xsd',
  resEvento: 'resEvento_v1.01.xsd',
  procEventoNFe: 'procEventoNFe_v1.00.xsd',
} as const;
type DocKind = keyof typeof SCHEMA;

interface SimDoc {
  nsu: number;
  kind: DocKind;
  accessKey: string;
  xml: string;
}

interface SimEvent {
  tpEvento: string;
  sequence: number;
  author: string;
  protocol: string;
  registeredAt: string;
  procXml: string;
}

interface SimInvoice {
  accessKey: string;
  recipient: string;
  tpAmb: '1' | '2';
  issuer: string;
  issuerName: string;
  issuerStateRegistration: string | null;
  issuedAt: string;
  operationType: string;
  total: string;
  digestValue: string | null;
  authorizedAt: string;
  protocol: string;
  procXml: string;
  status: 'AUTHORIZED' | 'CANCELLED' | 'DENIED';
  /** The full document was placed in the recipient's stream (after ciência/confirmação/não realizada). */
  released: boolean;
  events: SimEvent[];
}

interface Stream {
  docs: SimDoc[];
  /** ultNSU of the last distNSU reply: the only position the next distNSU may use. */
  position: number | null;
  quietUntil: number | null;
  blockedUntil: number | null;
  pointLookups: number[];
}

interface State {
  streams: Record<string, Stream>;
  invoices: Record<string, SimInvoice>;
  protocolSerial: number;
}

export interface AuthorityOptions {
  now?: () => number;
  /** Persist the state here (the embedded demo); absent → memory only (tests). */
  stateFile?: string;
  /** Deadline for manifestation events, from authorization (the AN answered 596 after 6 months). */
  deadlineDays?: number;
  /** The quiet period after 137 / reaching maxNSU and the 656 block (1 hour like the authority). */
  waitMs?: number;
  /** Signs what the simulated issuers sign (cancellations): credentials for a CNPJ. */
  issuerSigner: (cnpj: string, name: string) => SigningCredentials;
}

const streamKey = (tpAmb: string, cnpj: string) => `${tpAmb}:${cnpj}`;
const root8 = (doc: string | null | undefined) => (doc ?? '').slice(0, 8);

export interface FedInvoice {
  accessKey: string;
  recipient: string;
  nsu: string;
}

export class Authority {
  private state: State = { streams: {}, invoices: {}, protocolSerial: 1 };
  private readonly now: () => number;
  private readonly deadlineMs: number;
  private readonly waitMs: number;
  private readonly stateFile: StateFile<State>;

  constructor(private readonly opts: AuthorityOptions) {
    this.now = opts.now ?? Date.now;
    this.deadlineMs = (opts.deadlineDays ?? 180) * 24 * HOUR;
    this.waitMs = opts.waitMs ?? HOUR;
    this.stateFile = new StateFile(opts.stateFile, () => this.state);
    this.state = this.stateFile.load() ?? this.state;
  }

  private save(): void {
    this.stateFile.save();
  }

  private signerFor(cnpj: string, name: string): Signer {
    const c = this.opts.issuerSigner(cnpj, name);
    return signerOf(c.keyPem, c.certPem);
  }

  /** Until the state saved so far is in the state file (stop). */
  flush(): Promise<void> {
    return this.stateFile.flush();
  }

  private stream(tpAmb: string, cnpj: string): Stream {
    const key = streamKey(tpAmb, cnpj);
    return (this.state.streams[key] ??= { docs: [], position: null, quietUntil: null, blockedUntil: null, pointLookups: [] });
  }

  private append(invoice: Pick<SimInvoice, 'tpAmb' | 'recipient'>, kind: DocKind, accessKey: string, xml: string): number {
    const s = this.stream(invoice.tpAmb, invoice.recipient);
    const nsu = (s.docs[s.docs.length - 1]?.nsu ?? 0) + 1;
    s.docs.push({ nsu, kind, accessKey, xml });
    return nsu;
  }

  private nextProtocol(): string {
    return protocolNumber(new Date(this.now()), this.state.protocolSerial++);
  }

  /** Registers an authorized NF-e (nfeProc) and distributes its summary to the recipient. */
  feed(procXml: string): FedInvoice {
    const tree = readXml(procXml);
    const rootName = Object.keys(tree)[0];
    if (rootName !== 'nfeProc') throw new Error(`Expected an nfeProc document, got ${rootName}`);
    const root = childAt(tree, rootName);
    const inf = firstDescendant(root, 'infNFe');
    const prot = firstDescendant(root, 'infProt');
    const ide = childAt(inf, 'ide');
    const emit = childAt(inf, 'emit');
    const dest = childAt(inf, 'dest');
    const accessKey = textAt(prot, 'chNFe') ?? attrOf(inf, 'Id')?.replace(/^NFe/, '') ?? '';
    if (!ACCESS_KEY_PATTERN.test(accessKey)) throw new Error('The document has no access key');
    if (textAt(prot, 'cStat') !== '100') throw new Error('Only authorized documents (protNFe cStat 100) can be fed');
    const recipient = textAt(dest, 'CNPJ') ?? textAt(dest, 'CPF');
    if (!recipient) throw new Error('The document has no recipient CNPJ/CPF');
    const tpAmb = textAt(ide, 'tpAmb') === '2' ? '2' : '1';
    if (this.state.invoices[accessKey]) throw new Error(`The document ${accessKey} was already fed`);
    const invoice: SimInvoice = {
      accessKey,
      recipient,
      tpAmb,
      issuer: textAt(emit, 'CNPJ') ?? textAt(emit, 'CPF') ?? '',
      issuerName: textAt(emit, 'xNome') ?? '',
      issuerStateRegistration: textAt(emit, 'IE'),
      issuedAt: textAt(ide, 'dhEmi') ?? brasiliaDateTime(new Date(this.now())),
      operationType: textAt(ide, 'tpNF') ?? '1',
      total: textAt(firstDescendant(inf, 'ICMSTot'), 'vNF') ?? '0.00',
      digestValue: textAt(prot, 'digVal'),
      authorizedAt: textAt(prot, 'dhRecbto') ?? brasiliaDateTime(new Date(this.now())),
      protocol: textAt(prot, 'nProt') ?? this.nextProtocol(),
      procXml,
      status: 'AUTHORIZED',
      released: false,
      events: [],
    };
    this.state.invoices[accessKey] = invoice;
    const nsu = this.append(invoice, 'resNFe', accessKey, this.summaryOf(invoice));
    this.save();
    return { accessKey, recipient, nsu: padNsu(nsu) };
  }

  /** What NFeConsultaProtocolo4 answers for a document fed here (an issuer outside the simulator). */
  situationOf(accessKey: string, tpAmb: string): { status: SimInvoice['status']; protXml: string; eventsXml: string } | null {
    const invoice = this.state.invoices[accessKey];
    if (!invoice || invoice.tpAmb !== tpAmb) return null;
    const protXml = /<protNFe[\s>][\s\S]*<\/protNFe>/.exec(invoice.procXml)?.[0] ?? '';
    return { status: invoice.status, protXml, eventsXml: invoice.events.map((e) => e.procXml).join('') };
  }

  private summaryOf(i: SimInvoice): string {
    const party = i.issuer.length === 11 ? `<CPF>${i.issuer}</CPF>` : `<CNPJ>${i.issuer}</CNPJ>`;
    const situation = i.status === 'CANCELLED' ? '3' : i.status === 'DENIED' ? '2' : '1';
    return (
      `<resNFe xmlns="${NFE_NS}" versao="1.01"><chNFe>${i.accessKey}</chNFe>${party}<xNome>${escapeXml(i.issuerName)}</xNome>` +
      `<IE>${i.issuerStateRegistration ?? 'ISENTO'}</IE><dhEmi>${i.issuedAt}</dhEmi><tpNF>${i.operationType}</tpNF><vNF>${i.total}</vNF>` +
      (i.digestValue ? `<digVal>${i.digestValue}</digVal>` : '') +
      `<dhRecbto>${i.authorizedAt}</dhRecbto><nProt>${i.protocol}</nProt><cSitNFe>${situation}</cSitNFe></resNFe>`
    );
  }

  private hasManifested(i: SimInvoice): boolean {
    return i.events.some((e) => e.tpEvento.startsWith('2102'));
  }

  /** Cancellation by the issuer (110111), distributed to the recipient: full event if it manifested, else its summary. */
  cancelByIssuer(accessKey: string, justification = 'Cancelamento solicitado pelo emitente'): { nsu: string } {
    const invoice = this.state.invoices[accessKey];
    if (!invoice) throw new Error(`Unknown access key ${accessKey}`);
    if (invoice.status === 'CANCELLED') throw new Error('Already cancelled');
    const at = new Date(this.now());
    const cOrgao = accessKey.slice(0, 2);
    const evento = signedEvento(
      {
        tpEvento: TP_CANCELAMENTO,
        accessKey,
        sequence: 1,
        cOrgao,
        tpAmb: invoice.tpAmb,
        author: invoice.issuer,
        at: brasiliaDateTime(at),
        detail: `<descEvento>Cancelamento</descEvento><nProt>${invoice.protocol}</nProt><xJust>${canonicalText(justification)}</xJust>`,
      },
      this.signerFor(invoice.issuer, invoice.issuerName),
    );
    const protocol = this.nextProtocol();
    const registeredAt = brasiliaDateTime(at);
    const ret = buildRetEvento({
      tpAmb: invoice.tpAmb,
      verAplic: VER_APLIC,
      cStat: '135',
      xMotivo: 'Evento registrado e vinculado a NF-e',
      accessKey,
      tpEvento: TP_CANCELAMENTO,
      xEvento: 'Cancelamento registrado',
      sequence: 1,
      recipientDocument: invoice.recipient,
      registeredAt,
      protocol,
    });
    const procXml = buildProcEventoNFe(evento, ret);
    invoice.status = 'CANCELLED';
    invoice.events.push({ tpEvento: TP_CANCELAMENTO, sequence: 1, author: invoice.issuer, protocol, registeredAt, procXml });
    const nsu = this.hasManifested(invoice)
      ? this.append(invoice, 'procEventoNFe', accessKey, procXml)
      : this.append(
          invoice,
          'resEvento',
          accessKey,
          this.eventSummary(invoice, TP_CANCELAMENTO, 'Cancelamento', registeredAt, protocol, invoice.issuer),
        );
    this.save();
    return { nsu: padNsu(nsu) };
  }

  /**
   * The authority's 610600 ("CT-e autorizado para a NF-e"): a CT-e carrying the NF-e was authorized.
   * Distributed to the recipient like the cancellation: in full (naming the CT-e) if it manifested,
   * else as its summary (which does not).
   */
  announceCte(accessKey: string, cteKey: string): { nsu: string } {
    const invoice = this.state.invoices[accessKey];
    if (!invoice) throw new Error(`Unknown access key ${accessKey}`);
    const at = new Date(this.now());
    const sequence = invoice.events.filter((e) => e.tpEvento === '610600').length + 1;
    const author = AUTHORITY_CNPJ;
    const evento = signedEvento(
      {
        tpEvento: '610600',
        accessKey,
        sequence,
        cOrgao: '91',
        tpAmb: invoice.tpAmb,
        author,
        at: brasiliaDateTime(at),
        detail:
          `<descEvento>CT-e Autorizado</descEvento><CTe><chCTe>${cteKey}</chCTe><modal>01</modal><dhEmi>${brasiliaDateTime(at)}</dhEmi>` +
          `<nProt>${this.nextProtocol()}</nProt><dhRecbto>${brasiliaDateTime(at)}</dhRecbto></CTe>`,
      },
      this.signerFor(author, 'AMBIENTE NACIONAL'),
    );
    const protocol = this.nextProtocol();
    const registeredAt = brasiliaDateTime(at);
    const xEvento = 'Registro de Autorização de CT-e para a NF-e';
    const ret = buildRetEvento({
      tpAmb: invoice.tpAmb,
      verAplic: VER_APLIC,
      cStat: '135',
      xMotivo: 'Evento registrado e vinculado a NF-e',
      accessKey,
      tpEvento: '610600',
      xEvento,
      sequence,
      recipientDocument: invoice.recipient,
      registeredAt,
      protocol,
    });
    const procXml = buildProcEventoNFe(evento, ret);
    invoice.events.push({ tpEvento: '610600', sequence, author, protocol, registeredAt, procXml });
    const nsu = this.hasManifested(invoice)
      ? this.append(invoice, 'procEventoNFe', accessKey, procXml)
      : this.append(invoice, 'resEvento', accessKey, this.eventSummary(invoice, '610600', xEvento, registeredAt, protocol, author));
    this.save();
    return { nsu: padNsu(nsu) };
  }

  private eventSummary(i: SimInvoice, tpEvento: string, xEvento: string, at: string, protocol: string, author: string): string {
    const party = author.length === 11 ? `<CPF>${author}</CPF>` : `<CNPJ>${author}</CNPJ>`;
    return (
      `<resEvento xmlns="${NFE_NS}" versao="1.01"><cOrgao>${i.accessKey.slice(0, 2)}</cOrgao>${party}<chNFe>${i.accessKey}</chNFe>` +
      `<dhEvento>${at}</dhEvento><tpEvento>${tpEvento}</tpEvento><nSeqEvento>1</nSeqEvento><xEvento>${escapeXml(xEvento)}</xEvento>` +
      `<dhRecbto>${at}</dhRecbto><nProt>${protocol}</nProt></resEvento>`
    );
  }

  // ---- NFeDistribuicaoDFe ----

  private distReply(
    tpAmb: string,
    cStat: string,
    xMotivo: string,
    extra: { ultNSU?: string | null; maxNSU?: string | null; docs?: SimDoc[] } = {},
  ): string {
    return buildRetDistDFeInt({
      tpAmb,
      verAplic: VER_APLIC,
      cStat,
      xMotivo,
      dhResp: brasiliaDateTime(new Date(this.now())),
      ultNSU: extra.ultNSU,
      maxNSU: extra.maxNSU,
      documents: extra.docs?.map((d) => ({ nsu: padNsu(d.nsu), schema: SCHEMA[d.kind], xml: d.xml })),
    });
  }

  /** Answers a distDFeInt from the holder of `clientCertPem`. */
  distribute(req: DistRequest, clientCertPem: string | null): string {
    const now = this.now();
    const tpAmb = req.tpAmb;
    if (root8(certificateCnpj(clientCertPem)) !== root8(req.cnpj)) {
      return this.distReply(tpAmb, '593', 'Rejeicao: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital');
    }
    const s = this.stream(tpAmb, req.cnpj);
    const maxNsu = s.docs[s.docs.length - 1]?.nsu ?? 0;
    const blockedReply = (reason: string) =>
      this.distReply(tpAmb, '656', `Rejeicao: Consumo Indevido (${reason} Tente apos 1 hora)`, {
        ultNSU: padNsu(s.position ?? 0),
        maxNSU: NSU_ZERO,
      });
    const q = req.query;

    if (q.kind !== 'distNSU') {
      s.pointLookups = s.pointLookups.filter((t) => t > now - HOUR);
      if (s.pointLookups.length >= POINT_LOOKUPS_PER_HOUR) return blockedReply('Limite de consultas por NSU ou chave excedido.');
      s.pointLookups.push(now);
      this.save();
    }

    if (q.kind === 'consNSU') {
      const doc = s.docs.find((d) => d.nsu === Number(q.nsu));
      if (!doc) return this.distReply(tpAmb, '137', 'Nenhum documento localizado', { ultNSU: padNsu(q.nsu), maxNSU: padNsu(maxNsu) });
      return this.distReply(tpAmb, '138', 'Documento(s) localizado(s)', { ultNSU: padNsu(doc.nsu), maxNSU: padNsu(maxNsu), docs: [doc] });
    }

    if (q.kind === 'consChNFe') {
      const invoice = this.state.invoices[q.accessKey];
      if (!invoice || invoice.recipient !== req.cnpj || invoice.tpAmb !== tpAmb)
        return this.distReply(tpAmb, '137', 'Nenhum documento localizado');
      if (invoice.status === 'CANCELLED')
        return this.distReply(tpAmb, '653', 'Rejeicao: NF-e Cancelada, arquivo indisponivel para download');
      if (invoice.status === 'DENIED') return this.distReply(tpAmb, '654', 'Rejeicao: NF-e Denegada, arquivo indisponivel para download');
      const kind: DocKind = invoice.released ? 'procNFe' : 'resNFe';
      const doc = [...s.docs].reverse().find((d) => d.accessKey === q.accessKey && d.kind === kind);
      const body = doc ?? { nsu: 0, kind, accessKey: q.accessKey, xml: kind === 'procNFe' ? invoice.procXml : this.summaryOf(invoice) };
      return this.distReply(tpAmb, '138', 'Documento(s) localizado(s)', { ultNSU: padNsu(body.nsu), maxNSU: padNsu(maxNsu), docs: [body] });
    }

    const asked = Number(q.ultNSU);
    if (s.blockedUntil && s.blockedUntil > now) return blockedReply('Deve ser aguardado 1 hora para efetuar nova solicitacao.');
    if (s.position !== null && asked !== s.position) {
      s.blockedUntil = now + this.waitMs;
      this.save();
      return blockedReply('Deve ser utilizado o ultNSU nas solicitacoes subsequentes.');
    }
    if (s.quietUntil && s.quietUntil > now) {
      s.blockedUntil = now + this.waitMs;
      this.save();
      return blockedReply('Deve ser aguardado 1 hora para efetuar nova solicitacao caso nao existam mais documentos a serem pesquisados.');
    }
    if (asked > maxNsu)
      return this.distReply(tpAmb, '589', 'Rejeicao: Numero do NSU informado superior ao maior NSU da base de dados do Ambiente Nacional');
    const page = s.docs.filter((d) => d.nsu > asked).slice(0, PAGE);
    if (!page.length) {
      s.position = asked;
      s.quietUntil = now + this.waitMs;
      this.save();
      return this.distReply(tpAmb, '137', 'Nenhum documento localizado', { ultNSU: padNsu(asked), maxNSU: padNsu(maxNsu) });
    }
    const ult = page[page.length - 1].nsu;
    s.position = ult;
    if (ult === maxNsu) s.quietUntil = now + this.waitMs;
    this.save();
    return this.distReply(tpAmb, '138', 'Documento(s) localizado(s)', { ultNSU: padNsu(ult), maxNSU: padNsu(maxNsu), docs: page });
  }

  // ---- NFeRecepcaoEvento4 ----

  /** Answers an envEvento (its exact text, out of the SOAP envelope) from the holder of `clientCertPem`. */
  receiveEvents(envEventoXml: string, clientCertPem: string | null): string {
    const { idLote, eventos } = readEnvEvento(envEventoXml);
    const tpAmb = eventos[0]?.tpAmb ?? '1';
    if (!idLote || !/^\d{1,15}$/.test(idLote) || !eventos.length || eventos.length > 20) {
      return buildRetEnvEvento({
        idLote: idLote ?? '0',
        tpAmb,
        verAplic: VER_APLIC,
        cStat: '225',
        xMotivo: 'Rejeicao: Falha no Schema XML do lote',
        retEventos: [],
      });
    }
    const signatures = new Map(verifyEnvelopedSignatures(envEventoXml, 'infEvento', { direct: true }).map((c) => [c.id, c]));
    const tlsRoot = root8(certificateCnpj(clientCertPem));
    const results = eventos.map((ev) => this.registerEvent(ev, signatures.get(ev.id) ?? null, tlsRoot));
    this.save();
    return buildRetEnvEvento({
      idLote,
      tpAmb,
      verAplic: VER_APLIC,
      cStat: '128',
      xMotivo: 'Lote de evento processado',
      retEventos: results,
    });
  }

  private registerEvent(ev: ReceivedEvento, sig: { valid: boolean; certPem: string | null } | null, tlsRoot: string): string {
    const at = new Date(this.now());
    const registeredAt = brasiliaDateTime(at);
    const kind = eventOfType(ev.tpEvento);
    const reply = (cStat: string, xMotivo: string, protocol?: string) =>
      buildRetEvento({
        tpAmb: ev.tpAmb ?? '1',
        verAplic: VER_APLIC,
        cStat,
        xMotivo,
        accessKey: ACCESS_KEY_PATTERN.test(ev.accessKey) ? ev.accessKey : null,
        tpEvento: /^\d{6}$/.test(ev.tpEvento) ? ev.tpEvento : null,
        xEvento: kind ? EVENT_TYPES[kind].descEvento : null,
        sequence: ev.sequence >= 1 && ev.sequence <= 99 ? ev.sequence : null,
        recipientDocument: protocol ? ev.authorDocument : null,
        registeredAt,
        protocol,
      });
    if (!kind || ev.descEvento !== EVENT_TYPES[kind].descEvento) return reply('215', 'Rejeicao: Falha no schema XML');
    if (ev.id !== eventId(ev.tpEvento, ev.accessKey, ev.sequence))
      return reply(
        '572',
        'Rejeicao: Erro Atributo ID do evento nao corresponde a concatenacao dos campos (ID + tpEvento + chNFe + nSeqEvento)',
      );
    if (ev.cOrgao !== '91') return reply('657', 'Rejeicao: Codigo do Orgao diverge do orgao autorizador');
    if (!sig?.valid) return reply('297', 'Rejeicao: Assinatura difere do calculado');
    const author = root8(ev.authorDocument);
    if (root8(certificateCnpj(sig.certPem)) !== author || tlsRoot !== author) {
      return reply('631', 'Rejeicao: CNPJ-Base do Destinatario difere do CNPJ-Base do Certificado Digital');
    }
    if (kind === 'NAO_REALIZADA' && (ev.justification ?? '').length < 15)
      return reply('595', 'Rejeicao: Obrigatoria a informacao da justificativa do evento');
    const invoice = this.state.invoices[ev.accessKey];
    if (!invoice) return reply('494', 'Rejeicao: Chave de Acesso inexistente');
    if (invoice.tpAmb !== ev.tpAmb) return reply('252', 'Rejeicao: Ambiente informado diverge do Ambiente de recebimento');
    if (root8(invoice.recipient) !== author)
      return reply('631', 'Rejeicao: CNPJ-Base do Destinatario difere do CNPJ-Base do Certificado Digital');
    if (this.now() - Date.parse(invoice.authorizedAt) > this.deadlineMs) {
      return reply(
        '596',
        `Rejeicao: Evento apresentado apos o prazo permitido para o evento: [${Math.round(this.deadlineMs / (30 * 24 * HOUR))} meses]`,
      );
    }
    if (invoice.events.some((e) => e.tpEvento === ev.tpEvento && e.sequence === ev.sequence))
      return reply('573', 'Rejeicao: Duplicidade de evento');
    if (invoice.status !== 'AUTHORIZED') {
      if (kind === 'CIENCIA') return reply('650', 'Rejeicao: Evento de "Ciencia da Emissao" para NF-e Cancelada ou Denegada');
      if (kind === 'DESCONHECIMENTO')
        return reply('651', 'Rejeicao: Evento de "Desconhecimento da Operacao" para NF-e Cancelada ou Denegada');
      return reply('218', 'Rejeicao: NF-e ja esta cancelada na base de dados da SEFAZ');
    }
    if (kind === 'CIENCIA' && invoice.events.some((e) => ['210200', '210220', '210240'].includes(e.tpEvento))) {
      return reply('655', 'Rejeicao: Evento de Ciencia da Emissao informado apos a manifestacao final do destinatario');
    }
    const protocol = this.nextProtocol();
    const ret = reply('135', 'Evento registrado e vinculado a NF-e', protocol);
    invoice.events.push({
      tpEvento: ev.tpEvento,
      sequence: ev.sequence,
      author: ev.authorDocument ?? '',
      protocol,
      registeredAt,
      procXml: buildProcEventoNFe(ev.xml, ret),
    });
    // Ciência, confirmação and operação não realizada release the full document; desconhecimento does not.
    if (kind !== 'DESCONHECIMENTO' && !invoice.released) {
      invoice.released = true;
      this.append(invoice, 'procNFe', invoice.accessKey, invoice.procXml);
    }
    return ret;
  }

  /** What an admin or a test may inspect. */
  status(cnpj: string, tpAmb: '1' | '2' = '1') {
    const s = this.stream(tpAmb, cnpj);
    return {
      cnpj,
      tpAmb,
      maxNSU: padNsu(s.docs[s.docs.length - 1]?.nsu ?? 0),
      position: s.position === null ? null : padNsu(s.position),
      quietUntil: s.quietUntil ? new Date(s.quietUntil).toISOString() : null,
      blockedUntil: s.blockedUntil ? new Date(s.blockedUntil).toISOString() : null,
      documents: s.docs.length,
      invoices: Object.values(this.state.invoices)
        .filter((i) => i.recipient === cnpj && i.tpAmb === tpAmb)
        .map((i) => ({ accessKey: i.accessKey, status: i.status, released: i.released, events: i.events.map((e) => e.tpEvento) })),
    };
  }

  /** Lifts the 1-hour rules of a stream (the developer's "an hour has passed"). */
  releaseWait(cnpj: string, tpAmb: '1' | '2' = '1'): void {
    const s = this.stream(tpAmb, cnpj);
    s.quietUntil = null;
    s.blockedUntil = null;
    s.pointLookups = [];
    this.save();
  }
}
