import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { cashCounter, CashCounter } from '../cash-sessions/support';

/** The SDK's cash sessions against the real server: open, move, X report, blind close, approval, Z report, reopen. */
describe('SDK: cash sessions', () => {
  let c: CashCounter;
  let server: Server;
  let client: Client;

  before(async () => {
    c = await cashCounter();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = createClient({ baseUrl, token: c.t.token, companyId: c.t.companyHash, filialId: c.t.filialHashes[0] });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a whole day through the SDK; typed results and ApiError', async () => {
    const s = await client.cashSessions.open({
      filialId: c.t.filialHashes[0],
      terminalId: 'SDK1',
      operatorId: 'ana.caixa',
      openingFloat: 80,
    });
    expect(s.status).to.equal('OPEN');
    expect((await client.cashSessions.current('SDK1')).id).to.equal(s.id);
    expect((await c.sell('SDK1', [{ method: 'CASH', amount: 50 }], 2)).status).to.equal(201);
    const moved = await client.cashSessions.move(s.id, { type: 'SANGRIA', amount: 50, reason: 'Sangria para o cofre' });
    expect(moved.movement.amount).to.equal(50);
    const x = await client.cashSessions.reportX(s.id);
    expect(x.figures.lines[0]).to.include({ method: 'CASH', expected: 50 });
    const closed = await client.cashSessions.close(s.id, { counted: [{ method: 'CASH', amount: 40 }] });
    expect(closed).to.include({ status: 'PENDING_APPROVAL', closingDifference: -10 });
    const approved = await client.cashSessions.approve(s.id, { note: 'Conferido' });
    expect(approved.status).to.equal('CLOSED');
    expect((await client.cashSessions.reportZ(s.id)).kind).to.equal('Z');
    expect((await client.cashSessions.list({ terminalId: 'SDK1' })).data.map((r) => r.id)).to.deep.equal([s.id]);
    const reopened = await client.cashSessions.reopen(s.id, 'Recontagem do caixa');
    expect(reopened.reopenCount).to.equal(1);
    const twice = await client.cashSessions
      .open({ filialId: c.t.filialHashes[0], terminalId: 'SDK1', operatorId: 'bia', openingFloat: 1 })
      .catch((e: unknown) => e);
    expect(twice).to.be.instanceOf(ApiError);
    expect((twice as ApiError).code).to.equal('CASH_SESSION_ALREADY_OPEN');
  });
});
