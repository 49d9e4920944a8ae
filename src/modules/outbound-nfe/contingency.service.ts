import { IsNull } from 'typeorm';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { logger } from '../../core/logger';
import { Contingency, contingencyOf, NoAnswerError, ufCode } from '../authority';
import { InvoiceContingency } from './entities/invoice-contingency.entity';
import { clientOf, filialSigning } from './invoice-store';

/*
 * Contingency SVC-AN / SVC-RS (SPEC §12.2): entered when the filial's authority answers 108/109 (to an
 * authorization or to NFeStatusServico4); while open, new documents are issued with tpEmis 6/7, dhCont
 * and xJust and sent to the SVC. It ends by itself: at most every PROBE_MS the status service of the
 * filial's own authority is asked again, and 107 closes it.
 */
const PROBE_MS = 30_000;

export interface ContingencyState {
  mode: Contingency;
  since: Date;
  reason: string;
}

export async function enterContingency(
  companyId: number,
  filialId: number,
  uf: string,
  why: { cStat: string; xMotivo: string } | { reason: string },
): Promise<boolean> {
  return inTransaction(NO_UNIT, async (em) => {
    const open = await em.findOneBy(InvoiceContingency, { companyId, filialId, endedAt: IsNull() });
    if (open) return false;
    const now = new Date();
    await em.insert(InvoiceContingency, {
      companyId,
      filialId,
      mode: contingencyOf(uf),
      reason: ('reason' in why ? why.reason : `SEFAZ autorizadora indisponivel: ${why.cStat} ${why.xMotivo}`).slice(0, 256),
      since: now,
      checkedAt: now,
      endedAt: null,
    });
    return true;
  });
}

/** The open contingency of a filial (after asking the authority again when the last check is old), or null. */
export async function currentContingency(companyId: number, filialId: number, probe = true): Promise<ContingencyState | null> {
  const open = await readerOf(NO_UNIT).findOneBy(InvoiceContingency, { companyId, filialId, endedAt: IsNull() });
  if (!open) return null;
  if (probe && Date.now() - open.checkedAt.getTime() >= PROBE_MS) {
    const up = await authorityIsUp(companyId, filialId).catch(() => false);
    await inTransaction(NO_UNIT, (em) =>
      em.update(
        InvoiceContingency,
        { id: open.id, companyId },
        up ? { endedAt: new Date(), checkedAt: new Date() } : { checkedAt: new Date() },
      ),
    );
    if (up) {
      logger.info('contingency ended: the authority is back', { filialId });
      return null;
    }
  }
  return { mode: open.mode, since: open.since, reason: open.reason };
}

/** NFeStatusServico4 of the filial's own authority: 107 is up. */
export async function authorityIsUp(companyId: number, filialId: number): Promise<boolean> {
  const s = await filialSigning(companyId, filialId);
  try {
    const r = await (await clientOf(s, null)).status(ufCode(s.filial.uf) ?? '35');
    return r.cStat === '107';
  } catch (err) {
    if (err instanceof NoAnswerError) return false;
    throw err;
  }
}

/** Every open contingency is probed (the recovery tick): the authority back → normal emission again. */
export async function probeContingencies(): Promise<void> {
  const open = await readerOf(NO_UNIT).find(InvoiceContingency, { where: { endedAt: IsNull() } });
  for (const c of open) await currentContingency(c.companyId, c.filialId).catch(() => undefined);
}

/** Ends a filial's contingency now (tests, and an operator who knows better). */
export async function endContingency(companyId: number, filialId: number): Promise<void> {
  await inTransaction(NO_UNIT, (em) => em.update(InvoiceContingency, { companyId, filialId, endedAt: IsNull() }, { endedAt: new Date() }));
}
