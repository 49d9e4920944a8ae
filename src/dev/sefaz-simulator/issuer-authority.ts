import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  brasiliaDateTime,
  buildRetEvento,
  escapeXml,
  extractElementText,
  NFE_NS,
  readEnvEvento,
  readInutNFe,
  TP_CANCELAMENTO,
  TP_CANCELAMENTO_SUBSTITUICAO,
  TP_CCE,
  verifyEnvelopedSignatures,
  voidId,
} from '../../modules/authority';
import { accessKeyCheckDigit, attrOf, childAt, hasValidCheckDigit, readXml, textAt, type XNode } from '../../modules/fiscal-xml';
import { protocolNumber } from './nfe-generator';
import { firstDescendant } from './request-tree';
import { certificateCnpj, StateFile } from './state-file';

/*
 * The issuer's side of the authority (a state SEFAZ, or SVC-AN/SVC-RS): authorizes NF-e sent by
 * NFeAutorizacao4 (synchronous, lot of one), answers the situation of a key, the service status,
 * voids numbers and registers the issuer's events (110111 within the deadline, 110110 up to 20,
 * 110112 for an NFC-e replaced by an authorized offline note of the same issuer),
 * answering with the authority's codes: 225 schema, 297/298 signature, 236 key digit, 204/539
 * duplicity, 206 number voided, 501 cancellation past the deadline, 108/109 service down, 217 key
 * unknown. Faults can be injected for tests: drop the answer after authorizing, answer late, be
 * down for a while (also right after a dropped answer), answer a consultation from a lagging replica.
 *
 * 225 (schema): always the structural check below (root, versions, indSinc, the mandatory groups);
 * with `xsdDir` (the PL_010 schemas, SEFAZ_SIMULATOR_XSD_DIR) and xmllint on the PATH the NFe is also
 * validated against nfe_v4.00.xsd and a failure answers 225 with xmllint's message. That costs an
 * xmllint process per authorization (the schemas are loaded each time, docs/decisions/
 * simulator-schema-check.md), so it is off unless configured; the tests that need it turn it on.
 */

const VER_APLIC = 'SIMULADOR_UF_4.00';
const HOUR = 3600_000;

interface IssuedDoc {
  accessKey: string;
  cnpj: string;
  tpAmb: string;
  model: number;
  series: number;
  number: number;
  status: 'AUTHORIZED' | 'DENIED' | 'CANCELLED';
  protXml: string;
  protocol: string;
  authorizedAt: number;
  events: { tpEvento: string; sequence: number; protocol: string; procXml: string }[];
}

interface IssuerState {
  docs: Record<string, IssuedDoc>;
  byNumber: Record<string, string>;
  voided: { cnpj: string; tpAmb: string; model: number; series: number; first: number; last: number; protocol: string }[];
  serial: number;
}

export interface Faults {
  /** Authorize the next N documents, then drop the connection without an answer. */
  dropAfterAuthorize: number;
  /** Drop the connection on the next N authorizations without recording them (lost on the way there). */
  dropBeforeAuthorize: number;
  /** Hold every authorization answer this long (after authorizing). */
  delayMs: number;
  /** The normal authority answers 108 until then (epoch ms); contingency services stay up. */
  downUntil: number;
  /** The next authorization is rejected with this answer (tests of REJECTED). */
  rejectNext: { cStat: string; xMotivo: string } | null;
  /**
   * The next N requests that arrive on a kept-alive connection (one that already served a request) find
   * it closed: the socket is destroyed before the request is read, as when the server's keep-alive
   * timeout fires just as the client reuses the connection. Nothing is recorded.
   */
  closeReusedConnection: number;
  /** When a drop above fires, the normal authority goes down for this long (ms): the lost answer followed by an outage. */
  downAfterDropMs: number;
  /** The next N consultations answer 217 whatever the authority holds (a replica behind its primary), even while down. */
  consultAbsentNext: number;
}

export interface Reply {
  /** The message to put in the SOAP envelope; null → drop the connection. */
  message: string | null;
  delayMs: number;
}

/** Whether the schema check can run: the schemas are there and xmllint answers. */
export function canCheckSchema(xsdDir: string | null | undefined): boolean {
  return (
    !!xsdDir && fs.existsSync(path.join(xsdDir, 'nfe_v4.00.xsd')) && spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0
  );
}

/** The NFe against nfe_v4.00.xsd (xmllint): null when valid, else xmllint's first message without the file prefix. */
function xsdError(nfeText: string, xsdDir: string): string | null {
  const res = spawnSync('xmllint', ['--noout', '--nonet', '--schema', path.join(xsdDir, 'nfe_v4.00.xsd'), '-'], {
    input: nfeText,
    encoding: 'utf8',
    maxBuffer: 4 << 20,
  });
  if (res.status === 0) return null;
  const first =
    (res.stderr || res.error?.message || `xmllint exited ${res.status}`)
      .split('\n')
      .find((l) => l.trim() && !/fails to validate$/.test(l)) ?? 'invalid';
  return first
    .replace(/^-:\d+: /, '')
    .replace(/\{http:\/\/www\.portalfiscal\.inf\.br\/nfe\}/g, '')
    .trim();
}

/** What the checks of an authorization read from the lot (enviNFe) and its one NFe. */
interface LotReading {
  /** The root element (enviNFe in a lot of the layout) and its name. */
  root: XNode | null;
  rootName: string;
  nfe: XNode | null;
  inf: XNode | null;
  ide: XNode | null;
  tpAmb: string;
  cUF: string;
}

/** What a note passing its own checks claims: its key, issuer, número, digest and recipient. */
interface Claim {
  key: string;
  cnpj: string;
  tpAmb: string;
  model: number;
  series: number;
  number: number;
  digest: string | null;
  recipient: string | null;
}

const reply = (message: string | null, delayMs = 0): Reply => ({ message, delayMs });

/** The lot read from its text (not well-formed throws) or from its element in the request's tree. */
function readLot(lot: string | XNode): LotReading {
  const tree = typeof lot === 'string' ? readXml(lot) : null;
  const rootName = tree ? Object.keys(tree)[0] : 'enviNFe';
  const root = tree ? childAt(tree, rootName) : (lot as XNode);
  const nfe = childAt(root, 'NFe');
  const inf = childAt(nfe, 'infNFe');
  const ide = childAt(inf, 'ide');
  return { root, rootName, nfe, inf, ide, tpAmb: textAt(ide, 'tpAmb') ?? '1', cUF: textAt(ide, 'cUF') ?? '35' };
}

/** The structural part of the schema: root, versions, indSinc, the mandatory groups, idLote. */
function structurallyValid({ root, rootName, inf, ide }: LotReading): boolean {
  return (
    rootName === 'enviNFe' &&
    !!root &&
    attrOf(root, 'versao') === '4.00' &&
    textAt(root, 'indSinc') === '1' &&
    !!inf &&
    attrOf(inf, 'versao') === '4.00' &&
    ['ide', 'emit', 'det', 'total', 'transp', 'pag'].every((n) => !!childAt(inf, n)) &&
    /^\d{1,15}$/.test(textAt(root, 'idLote') ?? '') &&
    !!ide
  );
}

const numberKey = (cnpj: string, tpAmb: string, model: number, series: number, n: number) => `${cnpj}|${tpAmb}|${model}|${series}|${n}`;
const esc = escapeXml;

export class IssuerAuthority {
  private state: IssuerState = { docs: {}, byNumber: {}, voided: [], serial: 1 };
  readonly faults: Faults = {
    dropAfterAuthorize: 0,
    dropBeforeAuthorize: 0,
    delayMs: 0,
    downUntil: 0,
    rejectNext: null,
    closeReusedConnection: 0,
    downAfterDropMs: 0,
    consultAbsentNext: 0,
  };
  /** Recipients whose documents are denied (301 irregular recipient). */
  readonly irregularRecipients = new Set<string>();
  /** Authorized documents are handed here (the recipient's DF-e stream). */
  onAuthorized: ((procXml: string) => void) | null = null;
  /** Documents the national environment knows from other issuers (the DF-e feed): NFeConsultaProtocolo4 answers for them too. */
  knownElsewhere:
    | ((accessKey: string, tpAmb: string) => { status: 'AUTHORIZED' | 'CANCELLED' | 'DENIED'; protXml: string; eventsXml: string } | null)
    | null = null;

  private readonly stateFile: StateFile<IssuerState>;

  constructor(private readonly opts: { now: () => number; stateFile?: string; cancelDeadlineHours?: number; xsdDir?: string | null }) {
    this.stateFile = new StateFile(opts.stateFile, () => this.state);
    this.state = this.stateFile.load() ?? this.state;
  }

  private save(): void {
    this.stateFile.save();
  }

  /** Until the state saved so far is in the state file (stop). */
  flush(): Promise<void> {
    return this.stateFile.flush();
  }

  /** Down for `ms` from now (108 from the normal services; SVC stays up). */
  downFor(ms: number): void {
    this.faults.downUntil = this.opts.now() + ms;
  }

  private downAfterDrop(): void {
    if (this.faults.downAfterDropMs > 0) this.downFor(this.faults.downAfterDropMs);
  }

  isDown(): boolean {
    return this.opts.now() < this.faults.downUntil;
  }

  document(accessKey: string): IssuedDoc | undefined {
    return this.state.docs[accessKey];
  }

  /** Every document the authority holds for an issuer (tests count them). */
  documentsOf(cnpj: string): IssuedDoc[] {
    return Object.values(this.state.docs).filter((d) => d.cnpj === cnpj);
  }

  private now(): string {
    return brasiliaDateTime(new Date(this.opts.now()));
  }

  private nextProtocol(): string {
    return protocolNumber(new Date(this.opts.now()), 500_000_000 + this.state.serial++);
  }

  private isVoided(cnpj: string, tpAmb: string, model: number, series: number, n: number) {
    return this.state.voided.some(
      (v) => v.cnpj === cnpj && v.tpAmb === tpAmb && v.model === model && v.series === series && n >= v.first && n <= v.last,
    );
  }

  private retEnvi(tpAmb: string, cUF: string, cStat: string, xMotivo: string, prot = ''): string {
    return (
      `<retEnviNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cStat>${cStat}</cStat><xMotivo>${esc(xMotivo)}</xMotivo>` +
      `<cUF>${cUF}</cUF><dhRecbto>${this.now()}</dhRecbto>${prot}</retEnviNFe>`
    );
  }

  private prot(tpAmb: string, key: string, cStat: string, xMotivo: string, protocol: string | null, digest: string | null): string {
    return (
      `<protNFe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><chNFe>${key}</chNFe><dhRecbto>${this.now()}</dhRecbto>` +
      `${protocol ? `<nProt>${protocol}</nProt>` : ''}${digest ? `<digVal>${digest}</digVal>` : ''}<cStat>${cStat}</cStat><xMotivo>${esc(xMotivo)}</xMotivo></infProt></protNFe>`
    );
  }

  /**
   * NFeAutorizacao4 with indSinc 1 and one NF-e. `lot`: the enviNFe element already read from the
   * request's tree (the simulator parses the SOAP body once); absent, `enviNFe` is parsed here.
   */
  authorize(enviNFe: string, peerPem: string | null, contingency: boolean, lot?: XNode): Reply {
    let read: LotReading;
    try {
      read = readLot(lot ?? enviNFe);
    } catch {
      return reply(this.retEnvi('1', '35', '225', 'Rejeicao: Falha no Schema XML do lote de NFe'));
    }
    const { tpAmb, cUF } = read;
    if (!contingency && this.isDown()) return reply(this.retEnvi(tpAmb, cUF, '108', 'Servico Paralisado Momentaneamente (curto prazo)'));
    if (this.faults.dropBeforeAuthorize > 0) {
      this.faults.dropBeforeAuthorize--;
      this.downAfterDrop();
      return reply(null);
    }
    if (!structurallyValid(read)) return reply(this.retEnvi(tpAmb, cUF, '225', 'Rejeicao: Falha no Schema XML do lote de NFe'));
    const nfeText = extractElementText(enviNFe, 'NFe') ?? '';
    const claim = this.checkNote(read, nfeText, peerPem, contingency);
    if ('refusal' in claim) return reply(this.retEnvi(tpAmb, cUF, claim.refusal[0], claim.refusal[1]));
    const refused = this.refusalOfNumber(claim);
    if (refused) return reply(this.retEnvi(tpAmb, cUF, '104', 'Lote processado', refused));
    const prot = this.record(claim, nfeText);
    if (this.faults.dropAfterAuthorize > 0) {
      this.faults.dropAfterAuthorize--;
      this.downAfterDrop();
      return reply(null);
    }
    return reply(this.retEnvi(tpAmb, cUF, '104', 'Lote processado', prot), this.faults.delayMs);
  }

  /**
   * The note's own checks, in the authority's order: the schema (xmllint, when configured), the
   * Signature's presence (298), the key's check digit (236), the signature (297), the signer's and the
   * TLS peer's CNPJ base against the issuer's (213), the emission type against the service (114).
   * Passed, the note's claim: its key, issuer, número and digest.
   */
  private checkNote(
    read: LotReading,
    nfeText: string,
    peerPem: string | null,
    contingency: boolean,
  ): Claim | { refusal: [string, string] } {
    const inf = read.inf!;
    const ide = read.ide!;
    const refusal = (cStat: string, xMotivo: string) => ({ refusal: [cStat, xMotivo] as [string, string] });
    const key = (attrOf(inf, 'Id') ?? '').replace(/^NFe/, '');
    const schemaError = this.opts.xsdDir ? xsdError(nfeText, this.opts.xsdDir) : null;
    if (schemaError) return refusal('225', `Rejeicao: Falha no Schema XML do lote de NFe [${schemaError}]`.slice(0, 255));
    if (!firstDescendant(read.nfe, 'Signature')) return refusal('298', 'Rejeicao: Assinatura difere do padrao do Sistema');
    if (!/^\d{6}[0-9A-Z]{12}\d{26}$/.test(key) || !hasValidCheckDigit(key)) {
      const detail = key.length === 44 ? ` [esperado ${accessKeyCheckDigit(key.slice(0, 43))}]` : '';
      return refusal('236', `Rejeicao: Chave de Acesso com digito verificador invalido${detail}`);
    }
    const check = verifyEnvelopedSignatures(nfeText, 'infNFe', { direct: true })[0];
    if (!check?.valid) return refusal('297', 'Rejeicao: Assinatura difere do calculado');
    const cnpj = textAt(inf, 'emit', 'CNPJ') ?? textAt(inf, 'emit', 'CPF') ?? '';
    const signer = certificateCnpj(check.certPem);
    const peer = certificateCnpj(peerPem);
    if (!signer || signer.slice(0, 8) !== cnpj.slice(0, 8) || (peer && peer.slice(0, 8) !== cnpj.slice(0, 8)))
      return refusal('213', 'Rejeicao: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital');
    const tpEmis = textAt(ide, 'tpEmis');
    if (contingency !== (tpEmis === '6' || tpEmis === '7'))
      return refusal(
        '114',
        `Rejeicao: SCAN/SVC ${contingency ? 'nao habilitado para tpEmis normal' : 'tpEmis de contingencia na SEFAZ normal'}`,
      );
    return {
      key,
      cnpj,
      tpAmb: read.tpAmb,
      model: Number(textAt(ide, 'mod')),
      series: Number(textAt(ide, 'serie')),
      number: Number(textAt(ide, 'nNF')),
      digest: /<DigestValue>([^<]+)<\/DigestValue>/.exec(nfeText)?.[1] ?? null,
      recipient: textAt(inf, 'dest', 'CNPJ') ?? textAt(inf, 'dest', 'CPF'),
    };
  }

  /** The protNFe refusing a note whose key or número the authority already holds (204, 539), a número voided (206), or an injected rejection; null: none. */
  private refusalOfNumber(c: Claim): string | null {
    const existing = this.state.docs[c.key];
    if (existing) {
      const p = existing.protXml.match(/<nProt>(\d+)<\/nProt>/)?.[1] ?? '';
      const at = brasiliaDateTime(new Date(existing.authorizedAt));
      return this.prot(c.tpAmb, c.key, '204', `Rejeicao: Duplicidade de NF-e [nProt:${p}][dhAut:${at}]`, null, c.digest);
    }
    const other = this.state.byNumber[numberKey(c.cnpj, c.tpAmb, c.model, c.series, c.number)];
    if (other)
      return this.prot(
        c.tpAmb,
        c.key,
        '539',
        `Rejeicao: Duplicidade de NF-e, com diferenca na Chave de Acesso [chNFe: ${other}]`,
        null,
        c.digest,
      );
    if (this.isVoided(c.cnpj, c.tpAmb, c.model, c.series, c.number))
      return this.prot(c.tpAmb, c.key, '206', 'Rejeicao: NF-e ja esta inutilizada na Base de dados da SEFAZ', null, c.digest);
    if (this.faults.rejectNext) {
      const r = this.faults.rejectNext;
      this.faults.rejectNext = null;
      return this.prot(c.tpAmb, c.key, r.cStat, r.xMotivo, null, c.digest);
    }
    return null;
  }

  /**
   * The note authorized (100), or denied for an irregular recipient (302): held under its key and
   * número, saved, and an authorized note with a recipient handed to its DF-e stream (a note without
   * one, as most NFC-e, has no stream to reach). Returns its protNFe.
   */
  private record(c: Claim, nfeText: string): string {
    const denied = !!c.recipient && this.irregularRecipients.has(c.recipient);
    const protocol = this.nextProtocol();
    const prot = denied
      ? this.prot(c.tpAmb, c.key, '302', 'Uso Denegado: Irregularidade fiscal do destinatario', protocol, c.digest)
      : this.prot(c.tpAmb, c.key, '100', 'Autorizado o uso da NF-e', protocol, c.digest);
    this.state.docs[c.key] = {
      accessKey: c.key,
      cnpj: c.cnpj,
      tpAmb: c.tpAmb,
      model: c.model,
      series: c.series,
      number: c.number,
      status: denied ? 'DENIED' : 'AUTHORIZED',
      protXml: prot,
      protocol,
      authorizedAt: this.opts.now(),
      events: [],
    };
    this.state.byNumber[numberKey(c.cnpj, c.tpAmb, c.model, c.series, c.number)] = c.key;
    this.save();
    if (!denied && c.recipient && this.onAuthorized) {
      try {
        this.onAuthorized(`<nfeProc xmlns="${NFE_NS}" versao="4.00">${nfeText}${prot}</nfeProc>`);
      } catch {
        // The recipient's stream is a courtesy of the simulator; the authorization stands.
      }
    }
    return prot;
  }

  /** NFeConsultaProtocolo4. */
  situation(consSitNFe: XNode, contingency: boolean): string {
    const tpAmb = textAt(consSitNFe, 'tpAmb') ?? '1';
    const key = textAt(consSitNFe, 'chNFe') ?? '';
    const out = (cStat: string, xMotivo: string, extra = '') =>
      `<retConsSitNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cStat>${cStat}</cStat><xMotivo>${esc(xMotivo)}</xMotivo>` +
      `<cUF>${key.slice(0, 2) || '35'}</cUF><dhRecbto>${this.now()}</dhRecbto><chNFe>${key}</chNFe>${extra}</retConsSitNFe>`;
    if (this.faults.consultAbsentNext > 0) {
      this.faults.consultAbsentNext--;
      return out('217', 'Rejeicao: NF-e nao consta na base de dados da SEFAZ');
    }
    if (!contingency && this.isDown()) return out('108', 'Servico Paralisado Momentaneamente (curto prazo)');
    const doc = this.state.docs[key];
    if (!doc || doc.tpAmb !== tpAmb) {
      const other = this.knownElsewhere?.(key, tpAmb);
      if (!other) return out('217', 'Rejeicao: NF-e nao consta na base de dados da SEFAZ');
      if (other.status === 'CANCELLED') return out('101', 'Cancelamento de NF-e homologado', `${other.protXml}${other.eventsXml}`);
      if (other.status === 'DENIED') return out('110', 'Uso Denegado', other.protXml);
      return out('100', 'Autorizado o uso da NF-e', `${other.protXml}${other.eventsXml}`);
    }
    const events = doc.events.map((e) => e.procXml).join('');
    if (doc.status === 'CANCELLED') return out('101', 'Cancelamento de NF-e homologado', `${doc.protXml}${events}`);
    if (doc.status === 'DENIED') return out('110', 'Uso Denegado', doc.protXml);
    return out('100', 'Autorizado o uso da NF-e', `${doc.protXml}${events}`);
  }

  /** NFeStatusServico4. */
  status(consStatServ: XNode, contingency: boolean): string {
    const tpAmb = textAt(consStatServ, 'tpAmb') ?? '1';
    const cUF = textAt(consStatServ, 'cUF') ?? '35';
    const down = !contingency && this.isDown();
    return (
      `<retConsStatServ xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic>` +
      (down
        ? `<cStat>108</cStat><xMotivo>Servico Paralisado Momentaneamente (curto prazo)</xMotivo>`
        : `<cStat>107</cStat><xMotivo>Servico em Operacao</xMotivo>`) +
      `<cUF>${cUF}</cUF><dhRecbto>${this.now()}</dhRecbto><tMed>1</tMed>${down ? `<dhRetorno>${brasiliaDateTime(new Date(this.faults.downUntil))}</dhRetorno>` : ''}</retConsStatServ>`
    );
  }

  /** NFeInutilizacao4. */
  voidNumbers(inutNFe: string, contingency: boolean): string {
    const v = readInutNFe(inutNFe);
    const at = this.now();
    const out = (cStat: string, xMotivo: string, protocol: string | null) =>
      `<retInutNFe xmlns="${NFE_NS}" versao="4.00"><infInut><tpAmb>${v.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cStat>${cStat}</cStat><xMotivo>${esc(xMotivo)}</xMotivo>` +
      `<cUF>${v.cUF}</cUF><ano>${v.year}</ano><CNPJ>${v.cnpj}</CNPJ><mod>${v.model}</mod><serie>${v.series}</serie><nNFIni>${v.first}</nNFIni><nNFFin>${v.last}</nNFFin>` +
      `<dhRecbto>${at}</dhRecbto>${protocol ? `<nProt>${protocol}</nProt>` : ''}</infInut></retInutNFe>`;
    if (contingency) return out('999', 'Rejeicao: Inutilizacao nao disponivel em contingencia', null);
    if (this.isDown()) return out('108', 'Servico Paralisado Momentaneamente (curto prazo)', null);
    if (!v.id || v.id !== voidId(v) || !(v.first <= v.last) || v.justification.length < 15)
      return out('225', 'Rejeicao: Falha no Schema XML da inutilizacao', null);
    const check = verifyEnvelopedSignatures(inutNFe, 'infInut', { direct: true })[0];
    if (!check?.valid) return out('297', 'Rejeicao: Assinatura difere do calculado', null);
    for (let n = v.first; n <= v.last; n++) {
      if (this.state.byNumber[numberKey(v.cnpj, v.tpAmb, v.model, v.series, n)])
        return out('241', `Rejeicao: Um numero da faixa ja foi utilizado [nNF:${n}]`, null);
    }
    if (
      this.state.voided.some(
        (x) =>
          x.cnpj === v.cnpj &&
          x.tpAmb === v.tpAmb &&
          x.model === v.model &&
          x.series === v.series &&
          x.first === v.first &&
          x.last === v.last,
      )
    ) {
      return out('256', 'Rejeicao: Uma NF-e da faixa ja esta inutilizada na Base de dados da SEFAZ', null);
    }
    const protocol = this.nextProtocol();
    this.state.voided.push({ cnpj: v.cnpj, tpAmb: v.tpAmb, model: v.model, series: v.series, first: v.first, last: v.last, protocol });
    this.save();
    return out('102', 'Inutilizacao de numero homologado', protocol);
  }

  /** The issuer's events 110111 / 110110 of an envEvento (one per lot). */
  events(envEvento: string, contingency: boolean): string {
    const { idLote, eventos } = readEnvEvento(envEvento);
    const tpAmb = eventos[0]?.tpAmb ?? '1';
    const cOrgao = eventos[0]?.cOrgao ?? '35';
    const lot = (cStat: string, xMotivo: string, rets: string) =>
      `<retEnvEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${idLote ?? '0'}</idLote><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cOrgao>${cOrgao}</cOrgao><cStat>${cStat}</cStat><xMotivo>${esc(xMotivo)}</xMotivo>${rets}</retEnvEvento>`;
    if (!contingency && this.isDown()) return lot('108', 'Servico Paralisado Momentaneamente (curto prazo)', '');
    if (eventos.length !== 1) return lot('225', 'Rejeicao: Falha no Schema XML do lote de eventos', '');
    const e = eventos[0];
    const ret = (cStat: string, xMotivo: string, protocol: string | null = null) =>
      buildRetEvento({
        tpAmb,
        verAplic: VER_APLIC,
        cStat,
        xMotivo,
        accessKey: e.accessKey,
        tpEvento: e.tpEvento,
        sequence: e.sequence,
        registeredAt: this.now(),
        protocol,
      }).replace('<cOrgao>91</cOrgao>', `<cOrgao>${cOrgao}</cOrgao>`);
    const answer = (cStat: string, xMotivo: string, protocol: string | null = null) =>
      lot('128', 'Lote de Evento Processado', ret(cStat, xMotivo, protocol));
    if (e.tpEvento !== TP_CANCELAMENTO && e.tpEvento !== TP_CCE && e.tpEvento !== TP_CANCELAMENTO_SUBSTITUICAO)
      return answer('490', 'Rejeicao: Tipo do evento nao suportado pelo autorizador');
    const check = verifyEnvelopedSignatures(e.xml, 'infEvento', { direct: true })[0];
    if (!check?.valid) return answer('297', 'Rejeicao: Assinatura difere do calculado');
    const doc = this.state.docs[e.accessKey];
    if (!doc || doc.tpAmb !== tpAmb) return answer('494', 'Rejeicao: Chave de Acesso inexistente');
    if (e.authorDocument?.slice(0, 8) !== doc.cnpj.slice(0, 8))
      return answer('574', 'Rejeicao: O autor do evento diverge do emissor da NF-e');
    if (doc.status === 'CANCELLED')
      return answer(
        e.tpEvento !== TP_CCE ? '573' : '580',
        e.tpEvento !== TP_CCE ? 'Rejeicao: Duplicidade de evento' : 'Rejeicao: O evento exige uma NF-e autorizada (NF-e cancelada)',
      );
    if (doc.status === 'DENIED') return answer('580', 'Rejeicao: O evento exige uma NF-e autorizada');
    if (doc.events.some((x) => x.tpEvento === e.tpEvento && x.sequence === e.sequence))
      return answer('573', 'Rejeicao: Duplicidade de evento');
    if (e.tpEvento === TP_CANCELAMENTO || e.tpEvento === TP_CANCELAMENTO_SUBSTITUICAO) {
      const deadline = doc.authorizedAt + (this.opts.cancelDeadlineHours ?? 24) * HOUR;
      if (this.opts.now() > deadline)
        return answer('501', 'Rejeicao: Pedido de Cancelamento intempestivo (NF-e autorizada a mais de 24 horas)');
      const nProt = /<nProt>(\d+)<\/nProt>/.exec(e.xml)?.[1];
      if (nProt !== doc.protocol) return answer('222', 'Rejeicao: Protocolo de Autorizacao de Uso difere do cadastrado');
      if (e.tpEvento === TP_CANCELAMENTO_SUBSTITUICAO) {
        const refused = this.substitutionRefusal(doc, e.xml);
        if (refused) return answer(refused[0], refused[1]);
      }
    } else if (e.sequence < 1 || e.sequence > 20) {
      return answer('225', 'Rejeicao: Falha no Schema XML do lote de eventos');
    }
    const protocol = this.nextProtocol();
    const retXml = ret('135', 'Evento registrado e vinculado a NF-e', protocol);
    doc.events.push({
      tpEvento: e.tpEvento,
      sequence: e.sequence,
      protocol,
      procXml: `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${e.xml}${retXml}</procEventoNFe>`,
    });
    if (e.tpEvento !== TP_CCE) doc.status = 'CANCELLED';
    this.save();
    return lot('128', 'Lote de Evento Processado', retXml);
  }

  /**
   * 110112: the note cancelled must be an NFC-e issued normally; its substitute (chNFeRef) an NFC-e
   * of the same issuer, issued in offline contingency (tpEmis 9 in its key), authorized here, other
   * than the note itself. The answer codes are this simulator's (the rules are the layout's).
   */
  private substitutionRefusal(doc: IssuedDoc, eventoXml: string): [string, string] | null {
    const ref = /<chNFeRef>(\d{44})<\/chNFeRef>/.exec(eventoXml)?.[1];
    const author = /<cOrgaoAutor>(\d{2})<\/cOrgaoAutor>.*?<tpAutor>(\d)<\/tpAutor>/.exec(eventoXml);
    if (!ref || !author || author[2] !== '1' || !/<descEvento>Cancelamento por substituicao<\/descEvento>/.test(eventoXml))
      return ['225', 'Rejeicao: Falha no Schema XML do lote de eventos'];
    if (doc.model !== 65) return ['490', 'Rejeicao: Cancelamento por substituicao so se aplica a NFC-e (modelo 65)'];
    if (doc.accessKey[34] === '9')
      return ['490', 'Rejeicao: A NFC-e a cancelar por substituicao deve ter sido emitida em operacao normal (tpEmis 1)'];
    if (ref === doc.accessKey) return ['225', 'Rejeicao: Chave de acesso referenciada igual a chave do evento'];
    const substitute = this.state.docs[ref];
    if (!substitute || substitute.tpAmb !== doc.tpAmb)
      return ['494', `Rejeicao: Chave de Acesso referenciada inexistente [chNFeRef: ${ref}]`];
    if (substitute.cnpj !== doc.cnpj) return ['574', 'Rejeicao: NFC-e substituta de emitente diferente da NFC-e a cancelar'];
    if (substitute.model !== 65 || ref[34] !== '9')
      return ['490', 'Rejeicao: NFC-e substituta deve ser NFC-e emitida em contingencia off-line (tpEmis 9)'];
    if (substitute.status !== 'AUTHORIZED')
      return ['580', `Rejeicao: NFC-e substituta nao esta autorizada [situacao: ${substitute.status}]`];
    return null;
  }
}
