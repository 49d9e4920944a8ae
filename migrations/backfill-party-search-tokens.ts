import type { QueryRunner } from 'typeorm';
import { indexWords } from '../src/core/text/words';

/*
 * Backfill of party_search_token (migration WordSearchIndex, both engines): every customer by name and
 * trade name, every seller by name and alias, folded by the same function the service indexes with.
 * Keyset pages of 1,000 parties, multi-row inserts, so a 100k-customer tenant migrates in seconds.
 */
const PAGE = 1000;
const INSERT_ROWS = 500;

async function backfill(q: QueryRunner, table: 'customer' | 'seller', partyType: 'CUSTOMER' | 'SELLER', second: 'trade_name' | 'alias'): Promise<void> {
  for (let after = 0; ; ) {
    const rows: { id: number; company_id: number; name: string; other: string | null }[] = await q.query(
      `SELECT id, company_id, name, ${second} AS other FROM ${table} WHERE id > ? ORDER BY id LIMIT ${PAGE}`,
      [after],
    );
    if (!rows.length) return;
    const tokens = rows.flatMap((r) => indexWords(r.name, r.other).map((token) => [Number(r.company_id), partyType, token, Number(r.id)]));
    for (let i = 0; i < tokens.length; i += INSERT_ROWS) {
      const chunk = tokens.slice(i, i + INSERT_ROWS);
      await q.query(`INSERT INTO party_search_token (company_id, party_type, token, party_id) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`, chunk.flat());
    }
    after = Number(rows[rows.length - 1].id);
  }
}

export async function backfillPartySearchTokens(q: QueryRunner): Promise<void> {
  await backfill(q, 'customer', 'CUSTOMER', 'trade_name');
  await backfill(q, 'seller', 'SELLER', 'alias');
}
