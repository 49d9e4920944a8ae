import type { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { businessToday } from '../../core/business-date';
import type { ActorContext, TenantContext } from '../../core/context';
import { deferInsertRows } from '../../core/db/sql';
import { allocateId } from '../../core/sequence/ids';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError, UpstreamError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { AuthorityClient, IssuerTarget, type ProtocolResult } from '../authority';
import { type AuthorizationRules, consult, procOf, RESEND, type Standing, transmit } from '../emission';
import { additionalInfoOf, FilialSigning, filialSigning, gunzipText, gz, takeNextNumber } from '../outbound-nfe';
import { filialAuthoritySettings, issuerTarget } from '../sefaz';
import { accessKeyRandomCode as randomCode } from '../fiscal-xml';
import { assertPeriodOpen } from '../fiscal-periods';
import { type ComputedFiscalDocument, computeDocument, type EngineInput, loadEngineInput } from '../fiscal';
import { NfceConfiguration } from './entities/nfce-configuration.entity';
import { counterSettings, type CounterSettings, updateNfceIf } from './nfce.repository';
import { NfceDocument, NfceStatus, NfceSummary } from './entities/nfce-document.entity';
import { assertTransition, NfceAction } from './nfce.state';
import { buildSignedNfce, type CounterPayment, QrSettings, toOfflineContingency, tPagOf } from './nfce-xml';

/*
 * The NFC-e of a quick sale (SPEC §12.3). In the sale's transaction: the série's next number
 * (conditional UPDATE, so the sale and its note commit or roll back together), the tax engine's
 * document, the XML signed and stored. After the commit: NFeAutorizacao4 with the filial's short
 * deadline. No answer in time, or the authority down (108/109): the note is signed again in offline
 * contingency (tpEmis 9, new key) — from then on that key is the note's (printed on the DANFE) and the
 * transmission queue sends it. While a filial has notes waiting in contingency, new sales go straight
 * to contingency (their key is fixed in the sale's transaction), so the queue sends them in order.
 */

export interface CounterSaleLine {
  productId: number;
  salesOrderItemId: number;
  quantity: Dec;
  unitPrice: Dec;
  discount: Dec;
}

export interface CounterNoteInput {
  filialId: number;
  salesOrderId: number;
  customerId: number | null;
  consumerDocument: string | null;
  lines: CounterSaleLine[];
  /** The order-level discount, apportioned by the engine. */
  discount: Dec;
  total: Dec;
  payments: CounterNotePayment[];
  change: Dec;
}

/** A payment of the sale as the NFC-e's detPag states it, with its identification (card/Pix, where it was taken). */
export interface CounterNotePayment {
  kind: string;
  amount: Dec;
  pixStatic?: boolean;
  card?: CounterPayment['card'];
  payer?: CounterPayment['payer'];
}

export interface PreparedNote {
  id: number;
  status: NfceStatus;
  timeoutMs: number;
  /** The note as written in the sale's transaction, and its signed XML: the transmission reads neither back. */
  doc?: NfceDocument;
  signedXml?: string;
}

const money = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

export const qrSettingsOf = (c: NfceConfiguration): QrSettings => ({
  version: c.qrVersion === 2 ? 2 : 3,
  cscId: c.cscId,
  cscToken: c.cscToken,
  qrCodeUrl: c.qrCodeUrl,
  consultUrl: c.consultUrl,
});

export const nfceEvent = (d: NfceDocument, extra: Record<string, unknown> = {}) => ({
  nfceId: encodeId('nfce', d.id),
  filialId: encodeId('filial', d.filialId),
  salesOrderId: encodeId('sales-order', d.salesOrderId),
  accessKey: d.accessKey,
  series: d.series,
  number: d.number,
  status: d.status,
  contingency: d.emissionType === 9,
  total: Number(d.total.toFixed(2)),
  ...extra,
});

/** The filial's signer and certificate; kept a minute per filial so a sale does not parse the A1 again. */
const signingCache = new Map<string, { at: number; value: Promise<FilialSigning> }>();
export function counterSigning(companyId: number, filialId: number): Promise<FilialSigning> {
  const k = `${companyId}:${filialId}`;
  const hit = signingCache.get(k);
  if (hit && Date.now() - hit.at < 60_000) return hit.value;
  const value = filialSigning(companyId, filialId);
  value.catch(() => signingCache.delete(k));
  signingCache.set(k, { at: Date.now(), value });
  return value;
}

/** The filial's authority endpoints, kept a minute like its signer (a sale does not read them again). */
const targetCache = new Map<string, { at: number; value: Promise<IssuerTarget> }>();
export function counterTarget(sc: FilialSigning): Promise<IssuerTarget> {
  const k = `${sc.filial.companyId}:${sc.filial.id}`;
  const hit = targetCache.get(k);
  if (hit && Date.now() - hit.at < 60_000) return hit.value;
  const value = issuerTarget(sc.filial, null);
  value.catch(() => targetCache.delete(k));
  targetCache.set(k, { at: Date.now(), value });
  return value;
}

/** What the note's reads need, known from the sale's request before the sale is priced. */
export interface CounterNoteOpening {
  filialId: number;
  customerId: number | null;
  consumerDocument: string | null;
  productIds: number[];
}

/** The note's reads on their way (openCounterNote): answered by prepareCounterNote once the sale is priced. */
export interface OpenedCounterNote {
  /** Settles when every read has answered; never rejects (each failure is reported by prepareCounterNote, in order). */
  readonly settled: Promise<NoteReadsSettled>;
  /** Sent before the sale knew it issues a note: the série's number taken only where auto_issue is on. */
  readonly speculative: boolean;
}

interface NoteReadsSettled {
  settings: PromiseSettledResult<CounterSettings>;
  signing: PromiseSettledResult<FilialSigning>;
  engine: PromiseSettledResult<EngineInput>;
  noteId: PromiseSettledResult<number>;
  period: PromiseSettledResult<void>;
}

/**
 * Starts the note's reads in the caller's current round trip: the NFC-e settings with the série's number
 * (MySQL), the signer, the tax engine's reads (its products, parties and tables: what the priced lines
 * do not change), the note's id, and the period check (dated now; the filial row's shared lock a close
 * waits on: fiscal-periods). `speculative`: sent with the sale's first round trip, before the sale has
 * read whether the filial issues with every sale (the série's number is then only taken where it does).
 */
export function openCounterNote(
  em: EntityManager,
  ctx: TenantContext,
  opening: CounterNoteOpening,
  options: { speculative?: boolean } = {},
): OpenedCounterNote {
  const speculative = options.speculative === true;
  const issuedNow = new Date();
  const none = new Dec(0);
  const settled = Promise.allSettled([
    counterSettings(em, ctx.companyId, opening.filialId, { autoIssueOnly: speculative }),
    counterSigning(ctx.companyId, opening.filialId),
    // The priced lines replace these items when the note is computed (prepareCounterNote): the loader reads by product only.
    loadEngineInput(
      ctx,
      {
        filialId: opening.filialId,
        customerId: opening.customerId,
        consumerDocument: opening.consumerDocument,
        operation: 'SALE',
        model: 65,
        date: businessToday(),
        items: opening.productIds.map((productId) => ({ productId, quantity: none, unitPrice: none, discount: none })),
        presence: 1,
      },
      em,
    ),
    allocateId(em, NfceDocument),
    assertPeriodOpen(em, ctx.companyId, opening.filialId, issuedNow),
  ]).then(([settings, signing, engine, noteId, period]) => ({ settings, signing, engine, noteId, period }));
  return { settled, speculative };
}

/**
 * A note opened speculatively for a sale that issues none (its filial's auto_issue was turned off): its
 * reads are waited for (none left running in the transaction), and a number it took — the setting
 * turned on again between the sale's two reads of it — refuses the sale, so no number is left unexplained.
 */
export async function abandonCounterNote(opened: OpenedCounterNote): Promise<void> {
  const { settings } = await opened.settled;
  if (settings.status === 'fulfilled' && settings.value.numberTaken)
    throw new ConflictError('CONCURRENT_UPDATE', "The filial's NFC-e configuration changed during the sale; retry");
}

/** The opening of a note from its input (a note whose reads were not sent ahead). */
const openingOf = (input: CounterNoteInput): CounterNoteOpening => ({
  filialId: input.filialId,
  customerId: input.customerId,
  consumerDocument: input.consumerDocument,
  productIds: input.lines.map((l) => l.productId),
});

/** In the sale's transaction: number, compute, sign and store the NFC-e (its reads sent ahead by openCounterNote, or now). */
export async function prepareCounterNote(
  em: EntityManager,
  ctx: TenantContext,
  input: CounterNoteInput,
  opened: OpenedCounterNote = openCounterNote(em, ctx, openingOf(input)),
): Promise<PreparedNote> {
  const reads = await counterNoteReads(em, ctx, input, opened);
  const { config, waiting, document } = reads;
  asCounterConsumer(document, input.consumerDocument);
  const number = await reads.takeNumber();
  const issuedAt = new Date();
  const code = randomCode(number);
  const offline = waiting
    ? { at: waiting.contingencyAt ?? issuedAt, reason: waiting.contingencyReason ?? 'Sem comunicacao com a SEFAZ autorizadora' }
    : null;
  const note: NumberedNote = { number, issuedAt, code, offline };
  const built = signCounterNote(reads, input, note);
  const row = counterNoteRow(ctx, input, reads, note, built);
  // Its id taken before the INSERT (core/sequence/ids.ts): the row goes with the sale's COMMIT, nothing read back.
  await deferInsertRows(em, NfceDocument, [row]);
  const saved = Object.assign(new NfceDocument(), row);
  await recordAudit(em, ctx, {
    entity: 'nfce',
    entityId: saved.id,
    action: 'ISSUED',
    changes: diff({}, { status: saved.status, series: saved.series, number, accessKey: saved.accessKey, total: saved.total.toFixed(2) }),
  });
  if (offline)
    await publishEvent(em, ctx, {
      type: 'nfce.contingency',
      filialId: saved.filialId,
      aggregateType: 'nfce',
      aggregateId: saved.id,
      data: nfceEvent(saved, { reason: saved.contingencyReason }),
    });
  return { id: saved.id, status: saved.status, timeoutMs: config.syncTimeoutMs, doc: saved, signedXml: built.signedXml };
}

/** What a counter note is written from: the NFC-e settings, the signer, the computed document, its id. */
interface CounterNoteReads {
  config: NfceConfiguration;
  series: NonNullable<CounterSettings['series']>;
  takeNumber: NonNullable<CounterSettings['number']>;
  waiting: CounterSettings['waiting'];
  sc: FilialSigning;
  document: ComputedFiscalDocument;
  noteId: number;
}

/** The number, time, random code and contingency (if any) the note is issued with. */
interface NumberedNote {
  number: number;
  issuedAt: Date;
  code: string;
  offline: { at: Date; reason: string } | null;
}

/** The settings of a speculative opening that found no série where auto_issue is on: read again, plainly. */
async function settingsOf(
  em: EntityManager,
  ctx: TenantContext,
  input: CounterNoteInput,
  opened: OpenedCounterNote,
  read: NoteReadsSettled,
) {
  const s = read.settings;
  if (!opened.speculative || s.status === 'rejected' || !s.value.config || s.value.number) return s;
  const [again] = await Promise.allSettled([counterSettings(em, ctx.companyId, input.filialId)]);
  return again;
}

/** The opened reads answered, then each failure reported in the order a clerk can act on; the priced lines computed. */
async function counterNoteReads(
  em: EntityManager,
  ctx: TenantContext,
  input: CounterNoteInput,
  opened: OpenedCounterNote,
): Promise<CounterNoteReads> {
  const read = await opened.settled;
  const { signing, engine, noteId, period: periodOpen } = read;
  const settings = await settingsOf(em, ctx, input, opened, read);
  if (periodOpen.status === 'rejected') throw periodOpen.reason;
  if (settings.status === 'rejected') throw settings.reason;
  const { config, series, number: takeNumber, waiting } = settings.value;
  if (!config) throw new BusinessRuleError('NFCE_NOT_CONFIGURED', 'The filial issues NFC-e but has no NFC-e configuration');
  if (config.identificationThreshold && !input.consumerDocument && input.total.gt(config.identificationThreshold)) {
    throw new BusinessRuleError(
      'CONSUMER_IDENTIFICATION_REQUIRED',
      `Above R$ ${config.identificationThreshold.toFixed(2)} the consumer's CPF or CNPJ is required on the NFC-e`,
      {
        errors: [{ path: 'consumerDocument', message: 'required above the UF threshold' }],
      },
    );
  }
  if (signing.status === 'rejected') throw signing.reason;
  if (!series || !takeNumber) throw new BusinessRuleError('SERIES_NOT_CONFIGURED', `The filial has no série ${config.series} of model 65`);
  if (engine.status === 'rejected') throw engine.reason;
  // The engine on the priced lines and the order's discount (apportioned by the engine).
  const document = computeDocument({
    ...engine.value,
    items: input.lines.map((l) => ({
      productId: l.productId,
      salesOrderItemId: l.salesOrderItemId,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      discount: l.discount,
    })),
    discount: input.discount,
  });
  if (noteId.status === 'rejected') throw noteId.reason;
  // Notes waiting in contingency: this one joins them (offline from the start, sent after them, in order).
  return { config, series, takeNumber, waiting, sc: signing.value, document, noteId: noteId.value };
}

/** The NFC-e's recipient is the consumer: the CPF/CNPJ given at the counter, or none. */
function asCounterConsumer(document: ComputedFiscalDocument, consumer: string | null) {
  document.recipient = {
    ...document.recipient,
    document: consumer,
    personType: consumer && consumer.length === 11 ? 'PF' : 'PJ',
    ieIndicator: 9,
    stateRegistration: null,
    address: null,
    email: null,
    name: consumer ? (document.recipient.name ?? 'Consumidor') : null,
  };
}

function signCounterNote({ document, series, sc, config }: CounterNoteReads, input: CounterNoteInput, note: NumberedNote) {
  const additionalInfo = additionalInfoOf(document, null);
  return buildSignedNfce(
    document,
    {
      number: note.number,
      series: series.series,
      issuedAt: note.issuedAt,
      emissionType: note.offline ? 9 : 1,
      contingency: note.offline,
      randomCode: note.code,
      tpAmb: sc.tpAmb,
      payments: input.payments.map((p) => ({
        tPag: tPagOf(p.kind, p.pixStatic),
        amount: p.amount,
        card: p.card ?? null,
        payer: p.payer ?? null,
      })),
      change: input.change,
      additionalInfo,
    },
    qrSettingsOf(config),
    sc.signer,
    input.consumerDocument,
  );
}

/** What the DANFE NFC-e prints, kept with the note. */
function counterSummary(document: CounterNoteReads['document'], input: CounterNoteInput): NfceSummary {
  const consumer = input.consumerDocument;
  const issuer = document.issuer;
  const a = issuer.address;
  return {
    items: document.items.map((i) => ({
      code: i.code,
      description: i.description,
      quantity: i.quantity.toString(),
      unit: i.unit,
      unitPrice: money(i.unitPrice).toFixed(2),
      total: money(i.grossTotal).toFixed(2),
    })),
    payments: input.payments.map((p) => ({ tPag: tPagOf(p.kind, p.pixStatic), amount: money(p.amount).toFixed(2) })),
    change: money(input.change).toFixed(2),
    vProd: money(document.totals.vProd).toFixed(2),
    vDesc: money(document.totals.vDesc).toFixed(2),
    vNF: money(document.totals.vNF).toFixed(2),
    vTotTrib: money(document.totals.vTotTrib).toFixed(2),
    issuerName: issuer.name,
    issuerDocument: issuer.document,
    issuerAddress: [a.street, a.number, a.district, `${a.municipalityName}/${a.uf}`].filter(Boolean).join(', '),
    consumerName: consumer ? document.recipient.name : null,
  };
}

function counterNoteRow(
  ctx: TenantContext,
  input: CounterNoteInput,
  reads: CounterNoteReads,
  note: NumberedNote,
  built: ReturnType<typeof buildSignedNfce>,
) {
  const { document, series, config, sc } = reads;
  const { number, issuedAt, code, offline } = note;
  const summary = counterSummary(document, input);
  return {
    id: reads.noteId,
    companyId: ctx.companyId,
    filialId: input.filialId,
    salesOrderId: input.salesOrderId,
    seriesId: series.id,
    series: series.series,
    number,
    accessKey: built.accessKey,
    onlineKey: null,
    onlineNumber: null,
    originalOutcome: null,
    originalProtocol: null,
    originalXmlGz: null,
    status: (offline ? 'CONTINGENCY' : 'SIGNED') as NfceStatus,
    emissionType: offline ? 9 : 1,
    issuedAt,
    randomCode: code,
    contingencyAt: offline?.at ?? null,
    contingencyReason: offline?.reason ?? null,
    total: money(document.totals.vNF),
    consumerDocument: input.consumerDocument,
    qrCode: built.qrCode,
    consultUrl: config.consultUrl,
    tpAmb: sc.tpAmb,
    summary,
    signedXmlGz: gz(built.signedXml),
    procXmlGz: null,
    onlineXmlGz: null,
    protocol: null,
    authorizedAt: null,
    cStat: null,
    xMotivo: null,
    cancelProtocol: null,
    cancelXmlGz: null,
    sendAttempts: 0,
    overdueAlerted: false,
    version: 1,
    createdAt: issuedAt,
    updatedAt: issuedAt,
  } satisfies NfceDocument;
}

export async function findNfce(companyId: number, id: number, em: EntityManager): Promise<NfceDocument> {
  const doc = await em.findOneBy(NfceDocument, { id, companyId });
  if (!doc) throw new NotFoundError('NFC-e', 'NFCE_NOT_FOUND');
  return doc;
}

/** A conditional status change (status and version as read) with its audit row and event; services go through transitionNfce (the table's check first). */
export async function moveNfce(
  ctx: ActorContext,
  doc: NfceDocument,
  to: NfceStatus,
  fields: Partial<NfceDocument>,
  event: string | null,
  eventData: Record<string, unknown> = {},
  /** More fields computed in the same transaction (a number taken from the série). */
  inside?: (em: EntityManager) => Promise<Partial<NfceDocument>>,
): Promise<NfceDocument> {
  return inTransaction(ctx, async (em) => {
    const more = inside ? await inside(em) : {};
    // Undefined values change nothing (as with the query builder).
    const changes = Object.fromEntries(
      Object.entries({ ...fields, ...more, status: to, version: doc.version + 1, updatedAt: new Date() }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Partial<NfceDocument>;
    await updateNfceIf(em, doc, changes);
    // The row is what was read (status and version matched) with these changes: not read back.
    const after = Object.assign(new NfceDocument(), doc, changes);
    const visible = (d: NfceDocument) => ({
      status: d.status,
      number: d.number,
      accessKey: d.accessKey,
      emissionType: d.emissionType,
      cStat: d.cStat,
      protocol: d.protocol,
      originalOutcome: d.originalOutcome,
    });
    await recordAudit(em, ctx, {
      entity: 'nfce',
      entityId: doc.id,
      action: to === doc.status ? 'UPDATED' : to,
      changes: diff(visible(doc), visible(after)),
    });
    if (event)
      await publishEvent(em, ctx, {
        type: event,
        filialId: doc.filialId,
        aggregateType: 'nfce',
        aggregateId: doc.id,
        data: nfceEvent(after, { cStat: after.cStat, xMotivo: after.xMotivo, protocol: after.protocol, ...eventData }),
      });
    return after;
  });
}

/** What moveNfce takes after the note and its target status (fields, event, event data, the in-transaction fields). */
type MoveArgs = Parameters<typeof moveNfce> extends [ActorContext, NfceDocument, NfceStatus, ...infer Rest] ? Rest : never;

/** A status change by a named action of the table (nfce.state.ts): the target checked, then moveNfce. */
export function transitionNfce(
  ctx: ActorContext,
  doc: NfceDocument,
  action: NfceAction,
  to: NfceStatus,
  ...move: MoveArgs
): Promise<NfceDocument> {
  assertTransition(doc, action, to);
  return moveNfce(ctx, doc, to, ...move);
}

export type Verdict =
  | { kind: 'AUTHORIZED'; prot: ProtocolResult }
  | { kind: 'REJECTED'; cStat: string; xMotivo: string }
  | { kind: 'UNAVAILABLE'; reason: string; mayHaveReached: boolean };

/** What the authority holds under a key for a note: an authorization (any situation with protocol 100), or nothing we can use. */
export function heldAuthorization({ said, ...known }: Standing): ProtocolResult | null | 'UNAVAILABLE' {
  if (!said) return known.kind === 'UNKNOWN' && known.unanswered ? 'UNAVAILABLE' : null;
  if (said.protocol?.cStat === '100') return said.protocol;
  return said.cStat === '108' || said.cStat === '109' ? 'UNAVAILABLE' : null;
}

/** What the authority holds under a key: its authorization, or nothing we can use. */
export async function consultKey(client: AuthorityClient, accessKey: string): Promise<ProtocolResult | null | 'UNAVAILABLE'> {
  return heldAuthorization(await consult(client, accessKey));
}

const authorizedBy = (known: Standing): Verdict | null => {
  const held = heldAuthorization(known);
  return held && held !== 'UNAVAILABLE' ? { kind: 'AUTHORIZED', prot: held } : null;
};

/**
 * The NFC-e's rules in the emission kernel's exchange (emission/exchange.ts). No answer on a kept-alive
 * connection (the authority may have closed it just as the note went out) is a lost answer settled at
 * once: the key consulted — authorized, it is the verdict; unknown to the authority, the same note (same
 * key and number) is sent again on a new connection; the consultation unanswered, the lost answer's
 * usual course (offline contingency). Duplicity is settled by consulting.
 */
const nfceAuthorization: AuthorizationRules<NfceDocument, Verdict> = {
  consultsLostAnswer: (err, fresh) => err.reusedSocket && !fresh,
  lostAnswer(err, known) {
    if (known) {
      const held = heldAuthorization(known);
      if (held && held !== 'UNAVAILABLE') return { kind: 'AUTHORIZED', prot: held };
      if (held === null) return RESEND;
    }
    return {
      kind: 'UNAVAILABLE',
      reason: err.timeout ? 'Sem resposta da SEFAZ autorizadora no prazo' : `Sem comunicacao com a SEFAZ autorizadora`,
      mayHaveReached: true,
    };
  },
  unreached: (err) =>
    err instanceof UpstreamError
      ? { kind: 'UNAVAILABLE', reason: `SEFAZ autorizadora indisponivel (${err.code})`, mayHaveReached: false }
      : undefined,
  async refused(prot, doc, ask) {
    if (prot.cStat === '204') {
      const known = authorizedBy(await ask(doc.accessKey));
      if (known) return known;
    }
    if (prot.cStat === '539' && doc.onlineKey && doc.onlineNumber === null) {
      // The number is at the authority under the online attempt's key: that one was authorized after all.
      const known = authorizedBy(await ask(doc.onlineKey));
      if (known) return known;
    }
    return { kind: 'REJECTED', cStat: prot.cStat, xMotivo: prot.xMotivo };
  },
  down: (reply) => ({ kind: 'UNAVAILABLE', reason: `SEFAZ autorizadora: ${reply.cStat} ${reply.xMotivo}`, mayHaveReached: false }),
};

/** Sends one stored note (a lot of one, synchronous) and reads the verdict under the NFC-e's rules. */
export function sendNote(client: AuthorityClient, doc: NfceDocument, signedXml?: string): Promise<Verdict> {
  return transmit(client, doc, signedXml ?? gunzipText(doc.signedXmlGz), nfceAuthorization);
}

/** Records AUTHORIZED (with the nfeProc) or REJECTED (with its cStat, to be corrected). */
export async function recordVerdict(
  ctx: ActorContext,
  doc: NfceDocument,
  v: Exclude<Verdict, { kind: 'UNAVAILABLE' }>,
  authorizedEvent: string,
  signedXml?: string,
): Promise<NfceDocument> {
  if (v.kind === 'AUTHORIZED') {
    // Authorized under the online attempt's key (its answer had been lost): that key and XML are the note's.
    const underOnline = doc.onlineKey !== null && v.prot.accessKey === doc.onlineKey;
    return transitionNfce(
      ctx,
      doc,
      'record',
      'AUTHORIZED',
      {
        cStat: v.prot.cStat,
        xMotivo: v.prot.xMotivo.slice(0, 255),
        protocol: v.prot.protocol,
        authorizedAt: v.prot.receivedAt ? new Date(v.prot.receivedAt) : new Date(),
        procXmlGz: gz(
          procOf(underOnline && doc.onlineXmlGz ? gunzipText(doc.onlineXmlGz) : (signedXml ?? gunzipText(doc.signedXmlGz)), v.prot.xml),
        ),
        sendAttempts: doc.sendAttempts + 1,
        ...(underOnline
          ? {
              accessKey: doc.onlineKey!,
              onlineKey: doc.accessKey,
              emissionType: 1,
              signedXmlGz: doc.onlineXmlGz ?? doc.signedXmlGz,
              onlineXmlGz: doc.signedXmlGz,
            }
          : {}),
      },
      authorizedEvent,
    );
  }
  return transitionNfce(
    ctx,
    doc,
    'record',
    'REJECTED',
    { cStat: v.cStat, xMotivo: v.xMotivo.slice(0, 255), sendAttempts: doc.sendAttempts + 1 },
    'nfce.rejected',
  );
}

/**
 * The note re-signed in offline contingency (tpEmis 9); its new key is final. When the online attempt
 * may have reached the authority (no answer in time, connection lost), the offline note takes the
 * série's next number in this same transaction: the attempt, if the authority authorized it after all,
 * then stands beside it and is cancelled by substitution (110112) once the offline note is authorized;
 * if it never got there its number is voided (substitution.service.ts).
 */
export async function enterOfflineContingency(
  ctx: ActorContext,
  doc: NfceDocument,
  reason: string,
  mayHaveReached: boolean,
): Promise<NfceDocument> {
  const sc = await counterSigning(doc.companyId, doc.filialId);
  const config = await readerOf(ctx).findOneByOrFail(NfceConfiguration, { companyId: doc.companyId, filialId: doc.filialId });
  const at = new Date();
  const offline = (renumber: { number: number; randomCode: string } | null) =>
    toOfflineContingency(
      gunzipText(doc.signedXmlGz),
      at,
      reason,
      qrSettingsOf(config),
      sc.signer,
      doc.tpAmb === '1' ? '1' : '2',
      doc.total,
      doc.consumerDocument,
      renumber,
    );
  const common: Partial<NfceDocument> = {
    emissionType: 9,
    contingencyAt: at,
    contingencyReason: reason.slice(0, 256),
    sendAttempts: doc.sendAttempts + 1,
  };
  if (!mayHaveReached) {
    const built = offline(null);
    return transitionNfce(
      ctx,
      doc,
      'contingency',
      'CONTINGENCY',
      { ...common, accessKey: built.accessKey, onlineKey: null, onlineXmlGz: null, qrCode: built.qrCode, signedXmlGz: gz(built.signedXml) },
      'nfce.contingency',
      { reason },
    );
  }
  return transitionNfce(
    ctx,
    doc,
    'contingency',
    'CONTINGENCY',
    common,
    'nfce.contingency',
    { reason, onlineNumber: doc.number },
    async (em) => {
      const number = await takeNextNumber(em, doc.companyId, { id: doc.seriesId, series: doc.series });
      const built = offline({ number, randomCode: randomCode(number) });
      return {
        number,
        accessKey: built.accessKey,
        qrCode: built.qrCode,
        signedXmlGz: gz(built.signedXml),
        onlineKey: doc.accessKey,
        onlineNumber: doc.number,
        onlineXmlGz: doc.signedXmlGz,
        originalOutcome: 'PENDING' as const,
      };
    },
  );
}

/** After the sale commits: the synchronous attempt, with the filial's short deadline. */
export async function transmitCounterNote(ctx: ActorContext, prepared: PreparedNote): Promise<NfceDocument> {
  const doc = prepared.doc ?? (await findNfce(ctx.companyId, prepared.id, readerOf(ctx)));
  if (doc.status !== 'SIGNED') return doc;
  const sc = await counterSigning(doc.companyId, doc.filialId);
  const client = new AuthorityClient({
    issuer: await counterTarget(sc),
    credentials: sc.credentials,
    tpAmb: sc.tpAmb,
    timeoutMs: prepared.timeoutMs,
  });
  const v = await sendNote(client, doc, prepared.signedXml);
  if (v.kind === 'UNAVAILABLE') {
    // A filial whose policy is NONE prints no offline note: it stays SIGNED and the queue sends it when the authority answers.
    if ((await filialAuthoritySettings(doc.companyId, doc.filialId)).contingency.nfce === 'NONE') return doc;
    return enterOfflineContingency(ctx, doc, v.reason, v.mayHaveReached);
  }
  return recordVerdict(ctx, doc, v, 'nfce.authorized', prepared.signedXml);
}
