import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { closeAuthorityConnections } from '../../src/modules/authority/soap/https-transport';
import type { InvoiceTenant } from '../invoices/support';
import { Counter, counterTenant, notesOf } from './support';

/*
 * The counter's calls to the authority over kept-alive connections (docs/decisions/nfce-substitution.md):
 * sales share one TLS connection; a connection the authority closed while idle is replaced; and when
 * it closes one just as a note goes out on it (no answer at all on a reused socket), the note's key is
 * consulted and the same note sent again on a new connection — never a duplicate at the authority,
 * never a skipped number, never a note left SIGNED or put in contingency while the authority answers.
 */

describe('NFC-e over kept-alive connections to the authority', function () {
  this.timeout(120_000);
  let c: Counter;
  let t: InvoiceTenant;

  before(async () => {
    c = await counterTenant();
    t = c.t;
    await c.save();
  });

  afterEach(() => {
    t.sim.issuer.faults.closeReusedConnection = 0;
    t.sim.issuer.faults.dropAfterAuthorize = 0;
  });

  /** One sale that must come back AUTHORIZED online; answers its note. */
  const sellOnline = async () => {
    const res = await c.sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument, JSON.stringify(res.body.fiscalDocument)).to.include({ status: 'AUTHORIZED', contingency: false });
    return res.body.fiscalDocument as { id: string; number: number; accessKey: string };
  };

  /** Every number of the série used once, in order, each note AUTHORIZED, each held once by the authority under the note's key. */
  const noGapNoDuplicate = async () => {
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId, filialId: t.filialIds[0], model: 65 });
    const notes = await notesOf(t);
    expect(notes.map((n) => n.number)).to.deep.equal(Array.from({ length: series.nextNumber - 1 }, (_v, i) => i + 1));
    for (const n of notes) {
      expect(n, `note ${n.number}`).to.include({ status: 'AUTHORIZED', emissionType: 1, onlineNumber: null, onlineKey: null });
      expect(t.sim.issuer.document(n.accessKey)?.status).to.equal('AUTHORIZED');
    }
    const held = t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.model === 65);
    expect(held.map((d) => d.number).sort((a, b) => a - b)).to.deep.equal(notes.map((n) => n.number));
  };

  it('consecutive sales share one TLS connection; after the idle timeout a new one resumes the TLS session', async () => {
    closeAuthorityConnections();
    const before = { ...t.sim.connections };
    for (let i = 0; i < 4; i++) await sellOnline();
    expect(t.sim.connections.opened - before.opened).to.equal(1);
    // The server closes idle connections (its keep-alive timeout): the next sale opens one, resuming the session.
    t.sim.closeIdleConnections();
    await new Promise((r) => setTimeout(r, 50));
    await sellOnline();
    expect(t.sim.connections.opened - before.opened).to.equal(2);
    expect(t.sim.connections.resumed - before.resumed).to.equal(1);
    await noGapNoDuplicate();
  });

  it('the authority closes the connection between two notes: the next note goes out on a new one, authorized with its number', async () => {
    const first = await sellOnline();
    t.sim.closeIdleConnections();
    // No pause: the close may still be on its way when the next note goes out (then the reused-socket path below).
    const second = await sellOnline();
    expect(second.number).to.equal(first.number + 1);
    await noGapNoDuplicate();
  });

  it('a kept connection found closed as the note goes out (never read): the key is consulted, the same note sent again on a new connection', async () => {
    const first = await sellOnline();
    const opened = t.sim.connections.opened;
    t.sim.issuer.faults.closeReusedConnection = 1;
    const second = await sellOnline();
    expect(t.sim.issuer.faults.closeReusedConnection, 'the fault fired').to.equal(0);
    expect(second.number).to.equal(first.number + 1);
    expect(t.sim.connections.opened).to.be.greaterThan(opened);
    const third = await sellOnline();
    expect(third.number).to.equal(second.number + 1);
    const row = (await notesOf(t)).find((n) => n.number === second.number)!;
    expect(row).to.include({ accessKey: second.accessKey, sendAttempts: 1, contingencyAt: null });
    await noGapNoDuplicate();
  });

  it('a kept connection closed after the authority authorized the note (answer lost): consulted, AUTHORIZED under its key, no second number', async () => {
    const first = await sellOnline();
    t.sim.issuer.faults.dropAfterAuthorize = 1;
    const second = await sellOnline();
    expect(t.sim.issuer.faults.dropAfterAuthorize, 'the fault fired').to.equal(0);
    expect(second.number).to.equal(first.number + 1);
    const third = await sellOnline();
    expect(third.number).to.equal(second.number + 1);
    await noGapNoDuplicate();
  });
});
