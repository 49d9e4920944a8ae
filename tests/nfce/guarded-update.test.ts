import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { ConflictError } from '../../src/core/errors';
import { moveNfce } from '../../src/modules/nfce/issue.service';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { Counter, counterTenant, notesOf } from './support';

/*
 * A note's status change is guarded by the status and version it was read at, the guard enforced by
 * the database in the batch that carries the COMMIT (core/db batching runner, `expect`): a note that
 * moved meanwhile fails with CONCURRENT_UPDATE and nothing of the change lands — no row change, no
 * audit row, no event.
 */
describe('NFC-e: a status change from a stale read is refused, nothing written', function () {
  this.timeout(60_000);
  let c: Counter;

  before(async () => {
    c = await counterTenant();
    await c.save();
  });

  const countOf = async (table: 'audit_log' | 'outbox_event', companyId: number) =>
    Number(
      ((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE company_id = ?`, [companyId])) as { n: number | string }[])[0].n,
    );

  it('a stale version → 409 CONCURRENT_UPDATE; the current version moves', async () => {
    const sale = await c.sell();
    expect(sale.body.fiscalDocument).to.include({ status: 'AUTHORIZED' });
    const [note] = await notesOf(c.t);
    const ctx = { companyId: c.t.companyId, actor: 'test' };
    const stale = Object.assign(new NfceDocument(), note, { version: note.version - 1 });
    const before = { audit: await countOf('audit_log', c.t.companyId), outbox: await countOf('outbox_event', c.t.companyId) };
    const failure = await moveNfce(ctx, stale, 'AUTHORIZED', { xMotivo: 'from a stale read' }, 'nfce.authorized').catch(
      (err: Error) => err,
    );
    expect(failure).to.be.instanceOf(ConflictError).with.property('code', 'CONCURRENT_UPDATE');
    const after = await dataSource.manager.findOneByOrFail(NfceDocument, { id: note.id });
    expect(after).to.include({ version: note.version, xMotivo: note.xMotivo });
    expect({ audit: await countOf('audit_log', c.t.companyId), outbox: await countOf('outbox_event', c.t.companyId) }).to.deep.equal(
      before,
    );

    const moved = await moveNfce(ctx, note, 'AUTHORIZED', { xMotivo: 'from the current read' }, null);
    expect(moved.version).to.equal(note.version + 1);
    expect(await dataSource.manager.findOneByOrFail(NfceDocument, { id: note.id })).to.include({
      version: note.version + 1,
      xMotivo: 'from the current read',
    });
    expect(await countOf('audit_log', c.t.companyId)).to.equal(before.audit + 1);
  });
});
