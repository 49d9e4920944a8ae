import type { EntityManager } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { hydrate, setClause } from '../../core/db/sql';
import { deferWrite, readBatch } from '../../core/db/transaction';
import { ConflictError } from '../../core/errors';
import { takeNextNumber, takenNumber, takeNumberStatements } from '../outbound-nfe';
import { NfceConfiguration } from './entities/nfce-configuration.entity';
import { NfceDocument } from './entities/nfce-document.entity';

/* SQL of the NFC-e module's hot path: the counter's settings with its number, and the note's conditional status change. */

export interface CounterSettings {
  config: NfceConfiguration | undefined;
  /** The série of model 65 the settings name (undefined: not configured). */
  series: { id: number; series: number } | undefined;
  /** The number this note takes, in the caller's transaction (null without a série). */
  number: (() => Promise<number>) | null;
  /** The first note waiting in contingency, if any. */
  waiting: Pick<NfceDocument, 'id' | 'contingencyAt' | 'contingencyReason'> | undefined;
  /** MySQL: the série's number was taken by these statements (its row locked until the caller's transaction ends). */
  numberTaken: boolean;
}

/**
 * The filial's NFC-e settings, its série of model 65 with the number this note takes, and the first
 * note waiting in contingency. On MySQL in one round trip, the série's number taken by the invoices'
 * statements (the row lock held until the sale commits or rolls back, as every série number);
 * elsewhere the invoices' takeNextNumber, after the reads. `autoIssueOnly`: the série (and so its
 * number) only when the filial issues an NFC-e with every quick sale — for reads sent before the sale
 * knows it does, so that no number is taken for a sale that issues no note.
 */
export async function counterSettings(
  em: EntityManager,
  companyId: number,
  filialId: number,
  options: { autoIssueOnly?: boolean } = {},
): Promise<CounterSettings> {
  const numbering = takeNumberStatements(companyId, filialId, 65, {
    sql: `SELECT series FROM nfce_configuration WHERE company_id = ? AND filial_id = ?${options.autoIssueOnly ? ' AND auto_issue = 1' : ''}`,
    params: [companyId, filialId],
  });
  const statements = [
    { sql: 'SELECT * FROM nfce_configuration WHERE company_id = ? AND filial_id = ?', params: [companyId, filialId] },
    {
      sql: "SELECT id, contingency_at, contingency_reason FROM nfce_document WHERE company_id = ? AND filial_id = ? AND status = 'CONTINGENCY' ORDER BY number ASC LIMIT 1",
      params: [companyId, filialId],
    },
    ...(isMysql ? [numbering.take] : []),
    numbering.read,
  ];
  const results = (await readBatch(em, statements)) as unknown[];
  const [configs, waiting] = results as Record<string, unknown>[][];
  const config = hydrate(em, NfceConfiguration, configs)[0] as NfceConfiguration | undefined;
  const read = results[results.length - 1];
  const waitingNote = hydrate(em, NfceDocument, waiting)[0] as CounterSettings['waiting'];
  if (isMysql) {
    const taken = takenNumber(results[2], read);
    const numberTaken = Number((results[2] as { affectedRows?: number }).affectedRows ?? 0) > 0;
    return { config, series: taken?.series, number: taken ? async () => taken.number() : null, waiting: waitingNote, numberTaken };
  }
  const row = (read as { id: number; series: number }[])[0];
  const series = row ? { id: Number(row.id), series: Number(row.series) } : undefined;
  return {
    config,
    series,
    number: series ? () => takeNextNumber(em, companyId, series) : null,
    waiting: waitingNote,
    numberTaken: false,
  };
}

/**
 * Writes the changes if the note is still at the status and version read; otherwise the transaction
 * fails with CONCURRENT_UPDATE. Deferred and guarded by the database (core/db: `expect`), so on MySQL
 * the update, the audit and outbox rows after it and the COMMIT travel in one round trip.
 */
export async function updateNfceIf(
  em: EntityManager,
  doc: Pick<NfceDocument, 'id' | 'companyId' | 'status' | 'version'>,
  changes: Partial<NfceDocument>,
): Promise<void> {
  // Plain SQL (the update builder's own work costs about as much CPU as the round trip).
  const set = setClause(em, NfceDocument, changes);
  await deferWrite(em, {
    label: `NFC-e ${doc.id} → ${String(changes.status ?? doc.status)}`,
    sql: `UPDATE nfce_document SET ${set.sql} WHERE id = ? AND company_id = ? AND status = ? AND version = ?`,
    params: [...(set.params ?? []), doc.id, doc.companyId, doc.status, doc.version],
    expect: { rows: 1, error: () => new ConflictError('CONCURRENT_UPDATE', 'The NFC-e changed concurrently; retry') },
  });
}
