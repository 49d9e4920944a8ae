import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { In, LessThan } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { publishEvent } from '../../core/outbox/outbox.service';
import { replicaName, Worker } from '../../core/worker';
import { Product } from '../catalog';
import { loadFiscalBook } from '../fiscal-books';
import type { BookDocument, FiscalBook } from '../fiscal-books';
import { inventorySnapshot } from '../inventory-counts';
import type { InventorySnapshot } from '../inventory-counts';
import { assertFilialAccess, Company, Filial } from '../tenancy';
import { Accountant, buildEfd } from './efd-builder';
import { validateEfd } from './efd-validator';
import { SpedFile, SpedFinding } from './entities/sped-file.entity';
import { layoutVersionOf } from './layout';
import { encodeLatin1, renderLines } from './writer';

/*
 * EFD ICMS/IPI jobs (issue 47): POST stores a QUEUED row and returns; the file is written outside the
 * request (right after the commit, and by the sped worker for rows a stopped process left), validated
 * by the service, and released (READY) only without blocking findings (else BLOCKED, findings listed).
 */

export const AUDIT_ENTITY = 'sped-file';
const LEASE_MS = 5 * 60_000;
/** E116 COD_REC when the request gives none: SP's GARE-ICMS code of the periodic regime (RPA). */
const DEFAULT_REVENUE_CODE: Record<string, string> = { SP: '046-2' };

export interface SpedRequest {
  filialId: number;
  period: string;
  finalidade: '0' | '1';
  perfil: 'A' | 'B' | 'C';
  inventory?: { countId: number } | null;
  accountant?: Accountant | null;
  revenueCode?: string | null;
  previousCredit?: Dec | null;
}

interface StoredRequest {
  accountant: Accountant | null;
  revenueCode: string | null;
  previousCredit: string | null;
}

interface TraceDoc {
  kind: string;
  id: number;
  model: string;
  series: string;
  number: string;
  accessKey: string | null;
  situation: string;
}
interface TraceLine {
  description: string;
  cfop: string;
  cst: string;
  rate: string;
  operationValue: string;
  icmsBase: string;
  icms: string;
  st: string;
  ipi: string;
}
export interface StoredTrace {
  lines: Record<number, { s?: { ref: string; n: number | null }[]; d?: number[] }>;
  docs: Record<string, TraceDoc>;
  items: Record<string, TraceLine>;
}

function assertFilial(ctx: TenantContext, filialId: number) {
  if (ctx.grantedFiliais !== '*' && !ctx.grantedFiliais.includes(filialId)) throw new NotFoundError('Sped file');
}

/** POST /sped/efd-icms-ipi: the job row (QUEUED); the file is written after this commits. */
export async function requestEfd(ctx: TenantContext, req: SpedRequest): Promise<SpedFile> {
  const filial = await assertFilialAccess(ctx, req.filialId);
  if (req.period > businessToday().slice(0, 7)) throw new BusinessRuleError('EFD_PERIOD_IN_FUTURE', `${req.period} has not started yet`);
  if (!layoutVersionOf(req.period))
    throw new BusinessRuleError('EFD_LAYOUT_UNKNOWN', `No EFD ICMS/IPI layout version is known for ${req.period}`);
  if (req.inventory) await inventorySnapshot(ctx, req.filialId, req.inventory.countId);
  if (filial.taxRegime === 'SIMPLES_NACIONAL' && !filial.simplesExcessSublimit) {
    throw new BusinessRuleError('EFD_NOT_REQUIRED', 'A Simples Nacional filial (within the sublimit) does not file the EFD ICMS/IPI');
  }
  const stored: StoredRequest = {
    accountant: req.accountant ?? null,
    revenueCode: req.revenueCode ?? null,
    previousCredit: req.previousCredit ? req.previousCredit.toFixed(2) : null,
  };
  const file = await inTransaction(ctx, async (tx) => {
    const row = await tx.save(
      tx.create(SpedFile, {
        companyId: ctx.companyId,
        filialId: req.filialId,
        period: req.period,
        finalidade: req.finalidade,
        perfil: req.perfil,
        inventoryCountId: req.inventory?.countId ?? null,
        status: 'QUEUED',
        layoutVersion: layoutVersionOf(req.period),
        lineCount: null,
        sha256: null,
        contentGz: null,
        traceGz: null,
        request: stored as unknown as Record<string, unknown>,
        findings: null,
        error: null,
        requestedBy: ctx.actor,
        leaseOwner: null,
        leaseUntil: null,
        finishedAt: null,
      }),
    );
    await recordAudit(tx, ctx, {
      entity: AUDIT_ENTITY,
      entityId: row.id,
      action: 'REQUESTED',
      changes: { period: [null, req.period], status: [null, 'QUEUED'] },
    });
    return row;
  });
  setImmediate(() => void runSpedQueue().catch((err: unknown) => logger.error('sped queue run failed', { err })));
  return spedFile(ctx, file.id);
}

export async function spedFile(ctx: TenantContext, id: number): Promise<SpedFile> {
  const row = await readerOf(ctx).findOneBy(SpedFile, { id, companyId: ctx.companyId });
  if (!row) throw new NotFoundError('Sped file');
  assertFilial(ctx, row.filialId);
  return row;
}

/** The released file's bytes (ISO-8859-1, CRLF). */
export async function spedContent(ctx: TenantContext, id: number): Promise<{ file: SpedFile; bytes: Buffer }> {
  const file = await spedFile(ctx, id);
  if (file.status !== 'READY') {
    throw new ConflictError(
      file.status === 'BLOCKED' ? 'SPED_FILE_BLOCKED' : 'SPED_FILE_NOT_READY',
      file.status === 'BLOCKED' ? 'The file has blocking findings and is not released' : `The file is ${file.status}`,
      {
        fileStatus: file.status,
      },
    );
  }
  const row = await readerOf(ctx)
    .createQueryBuilder(SpedFile, 'f')
    .addSelect('f.contentGz')
    .where('f.id = :id AND f.company_id = :companyId', { id, companyId: ctx.companyId })
    .getOneOrFail();
  return { file, bytes: zlib.gunzipSync(row.contentGz!) };
}

export interface TraceAnswer {
  file: SpedFile;
  line: number;
  register: string;
  fields: string[];
  sources: { ref: string; doc: TraceDoc | null; lineNumber: number | null; item: TraceLine | null }[];
  derivedFrom: { line: number; register: string }[];
}

/** GET …/trace?register=C190&line=N: the document lines behind line N of the file (N counts from 1). */
export async function spedTrace(ctx: TenantContext, id: number, register: string, line: number): Promise<TraceAnswer> {
  const file = await spedFile(ctx, id);
  if (file.status !== 'READY' && file.status !== 'BLOCKED')
    throw new ConflictError('SPED_FILE_NOT_READY', `The file is ${file.status}`, { fileStatus: file.status });
  const row = await readerOf(ctx)
    .createQueryBuilder(SpedFile, 'f')
    .addSelect('f.contentGz')
    .addSelect('f.traceGz')
    .where('f.id = :id AND f.company_id = :companyId', { id, companyId: ctx.companyId })
    .getOneOrFail();
  const text = zlib.gunzipSync(row.contentGz!).toString('latin1');
  const all = text.split('\r\n');
  const raw = all[line - 1];
  const fields = raw ? raw.slice(1, -1).split('|') : [];
  if (!raw || fields[0] !== register) throw new NotFoundError('Sped line', 'SPED_LINE_NOT_FOUND');
  const trace = JSON.parse(zlib.gunzipSync(row.traceGz!).toString('utf8')) as StoredTrace;
  const t = trace.lines[line] ?? {};
  return {
    file,
    line,
    register,
    fields,
    sources: (t.s ?? []).map((s) => ({
      ref: s.ref,
      doc: trace.docs[s.ref] ?? null,
      lineNumber: s.n,
      item: s.n === null ? null : (trace.items[`${s.ref}#${s.n}`] ?? null),
    })),
    derivedFrom: (t.d ?? []).map((n) => ({ line: n, register: all[n - 1].slice(1, 5) })),
  };
}

const ID_KIND: Record<string, string> = { NFE: 'invoice', NFCE: 'nfce', ENTRY: 'entry-document', CTE: 'cte', COUNT: 'inventory-count' };
export const traceDocKind = (ref: string) => ID_KIND[ref.split(':')[0]] ?? null;

function traceOf(book: FiscalBook, lines: ReturnType<typeof buildEfd>['lines'], inventory: InventorySnapshot | null): StoredTrace {
  const docs: Record<string, TraceDoc> = {};
  const items: Record<string, TraceLine> = {};
  const fx = (d: Dec) => d.toFixed(2);
  const docOf = (d: BookDocument) => {
    docs[d.ref] = {
      kind: d.kind,
      id: Number(d.ref.split(':')[1]),
      model: d.model,
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      situation: d.situation,
    };
    for (const l of d.lines)
      items[`${d.ref}#${l.lineNumber}`] = {
        description: l.description,
        cfop: l.cfop,
        cst: l.cstIcms,
        rate: fx(l.icmsRate),
        operationValue: fx(l.operationValue),
        icmsBase: fx(l.icmsBase),
        icms: fx(l.icms),
        st: fx(l.st),
        ipi: fx(l.ipi),
      };
  };
  book.documents.forEach(docOf);
  for (const v of book.voided)
    docs[`VOID:${v.model}:${v.series}:${v.number}`] = {
      kind: 'VOIDED',
      id: 0,
      model: v.model,
      series: v.series,
      number: v.number,
      accessKey: null,
      situation: '05',
    };
  if (inventory)
    docs[`COUNT:${inventory.countId}`] = {
      kind: 'COUNT',
      id: inventory.countId,
      model: '',
      series: '',
      number: String(inventory.countId),
      accessKey: null,
      situation: '00',
    };
  const out: StoredTrace['lines'] = {};
  lines.forEach((l, i) => {
    if (l.sources || l.derivedFrom)
      out[i + 1] = {
        ...(l.sources ? { s: l.sources.map((s) => ({ ref: s.ref, n: s.lineNumber })) } : {}),
        ...(l.derivedFrom ? { d: l.derivedFrom } : {}),
      };
  });
  return { lines: out, docs, items };
}

/** The credit the previous month's released file carried (its E110 VL_SLD_CREDOR_TRANSPORTAR), else zero. */
async function previousCredit(companyId: number, filialId: number, period: string): Promise<Dec> {
  const [y, m] = period.split('-').map(Number);
  const prev = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  const row = await readerOf(NO_UNIT)
    .createQueryBuilder(SpedFile, 'f')
    .addSelect('f.contentGz')
    .where('f.company_id = :companyId AND f.filial_id = :filialId AND f.period = :prev AND f.status = :status', {
      companyId,
      filialId,
      prev,
      status: 'READY',
    })
    .orderBy('f.id', 'DESC')
    .getOne();
  if (!row?.contentGz) return new Dec(0);
  const e110 = zlib
    .gunzipSync(row.contentGz)
    .toString('latin1')
    .split('\r\n')
    .find((l) => l.startsWith('|E110|'));
  return new Dec((e110?.split('|')[14] ?? '0').replace(',', '.') || '0');
}

/** Writes one claimed job: the book, the file, its validation; READY or BLOCKED. */
async function writeJob(file: SpedFile): Promise<void> {
  const ctx: TenantContext = { companyId: file.companyId, actor: file.requestedBy, grantedFiliais: '*', scopes: ['*'] };
  const em = readerOf(NO_UNIT);
  const stored = (file.request ?? {}) as unknown as StoredRequest;
  const [company, filial, book] = [
    await em.findOneByOrFail(Company, { id: file.companyId }),
    await em.findOneByOrFail(Filial, { id: file.filialId, companyId: file.companyId }),
    await loadFiscalBook(em, file.companyId, file.filialId, file.period),
  ];
  const inventory = file.inventoryCountId ? await inventorySnapshot(ctx, file.filialId, file.inventoryCountId) : null;
  const productIds = [
    ...new Set(
      [...book.documents.flatMap((d) => d.lines.map((l) => l.productId)), ...(inventory?.items.map((i) => i.productId) ?? [])].filter(
        (x): x is number => x !== null,
      ),
    ),
  ];
  const products = productIds.length ? await em.find(Product, { where: { companyId: file.companyId, id: In(productIds) } }) : [];
  const built = buildEfd({
    book,
    company,
    filial,
    layoutVersion: file.layoutVersion!,
    finalidade: file.finalidade,
    perfil: file.perfil,
    accountant: stored.accountant ?? null,
    products: new Map(products.map((p) => [p.id, p])),
    inventory,
    previousCredit: stored.previousCredit
      ? new Dec(stored.previousCredit)
      : await previousCredit(file.companyId, file.filialId, file.period),
    revenueCode: stored.revenueCode ?? DEFAULT_REVENUE_CODE[filial.uf] ?? '',
  });
  const text = renderLines(built.lines);
  const bytes = encodeLatin1(text);
  const findings: SpedFinding[] = validateEfd(bytes.toString('latin1'));
  if (!filial.stateRegistration)
    findings.push({ severity: 'BLOCKING', code: 'STATE_REGISTRATION_MISSING', message: 'The filial has no state registration (0000 IE)' });
  if (!filial.municipalityCode)
    findings.push({ severity: 'BLOCKING', code: 'MUNICIPALITY_MISSING', message: 'The filial has no municipality code (0000 COD_MUN)' });
  for (const d of book.documents.filter((x) => x.pendingAuthorization))
    findings.push({
      severity: 'WARNING',
      code: 'NOT_AUTHORIZED_YET',
      message: `NFC-e ${d.series}/${d.number} was issued in contingency and is not authorized yet`,
    });
  if (file.period >= businessToday().slice(0, 7))
    findings.push({ severity: 'WARNING', code: 'PERIOD_NOT_ENDED', message: `${file.period} has not ended: documents may still be added` });
  const status = findings.some((f) => f.severity === 'BLOCKING') ? 'BLOCKED' : 'READY';
  const trace = traceOf(book, built.lines, inventory);
  await inTransaction(NO_UNIT, async (tx) => {
    const done = await tx.update(
      SpedFile,
      { id: file.id, companyId: file.companyId, status: 'RUNNING', leaseOwner: file.leaseOwner! },
      {
        status,
        lineCount: built.lines.length,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        contentGz: zlib.gzipSync(bytes),
        traceGz: zlib.gzipSync(Buffer.from(JSON.stringify(trace), 'utf8')),
        findings,
        finishedAt: new Date(),
        leaseOwner: null,
        leaseUntil: null,
        version: file.version + 1,
      },
    );
    if (!done.affected) return;
    const actx = { companyId: file.companyId, actor: file.requestedBy };
    await recordAudit(tx, actx, {
      entity: AUDIT_ENTITY,
      entityId: file.id,
      action: status,
      changes: { status: ['RUNNING', status], lineCount: [null, built.lines.length] },
    });
    await publishEvent(tx, actx, {
      type: status === 'READY' ? 'sped.efd.ready' : 'sped.efd.blocked',
      filialId: file.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: file.id,
      data: {
        spedFileId: encodeId('sped-file', file.id),
        filialId: encodeId('filial', file.filialId),
        period: file.period,
        status,
        blocking: findings.filter((f) => f.severity === 'BLOCKING').length,
      },
    });
  });
}

const owner = replicaName();

/** Claims and writes every QUEUED job (and RUNNING ones whose lease expired); returns how many it wrote. */
export async function runSpedQueue(): Promise<number> {
  const em = readerOf(NO_UNIT);
  const candidates = await em.find(SpedFile, {
    where: [{ status: 'QUEUED' }, { status: 'RUNNING', leaseUntil: LessThan(new Date()) }],
    order: { id: 'ASC' },
    take: 20,
  });
  let written = 0;
  for (const c of candidates) {
    const until = new Date(Date.now() + LEASE_MS);
    const claimed = await em.update(
      SpedFile,
      { id: c.id, status: c.status, version: c.version },
      { status: 'RUNNING', leaseOwner: owner, leaseUntil: until, version: c.version + 1 },
    );
    if (!claimed.affected) continue;
    const file = { ...c, status: 'RUNNING' as const, leaseOwner: owner, leaseUntil: until, version: c.version + 1 };
    try {
      await writeJob(file);
      written++;
    } catch (err) {
      logger.error('EFD job failed', { err, spedFileId: c.id });
      await em.update(
        SpedFile,
        { id: c.id, status: 'RUNNING', leaseOwner: owner },
        {
          status: 'FAILED',
          error: String((err as Error).message ?? err).slice(0, 500),
          finishedAt: new Date(),
          leaseOwner: null,
          leaseUntil: null,
          version: c.version + 2,
        },
      );
    }
  }
  return written;
}

export const spedWorker = (intervalMs = 10_000) =>
  new Worker({ name: 'sped-efd', intervalMs, runAtStart: true, run: () => runSpedQueue() });
