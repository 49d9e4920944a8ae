import { expect } from 'chai';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { HttpPixPsp, PspError } from '../../src/modules/collection/pix-psp';
import { PspSimulator, startPspSimulator } from '../../src/dev/psp-simulator';

/*
 * The API Pix v2 client against the local PSP: OAuth2 client credentials (a revoked token is renewed
 * once), cob / cobv / pix / devolucao / webhook, the API's problem documents as PSP errors, and no
 * call inside an open database transaction.
 */
describe('Pix PSP client (API Pix v2) against the local PSP simulator', () => {
  let sim: PspSimulator;
  let psp: HttpPixPsp;
  const txid = (n: number) => `pixclienttest${String(n).padStart(13, '0')}`;

  before(async () => {
    sim = await startPspSimulator();
    psp = new HttpPixPsp({ baseUrl: sim.apiUrl, clientId: sim.clientId, clientSecret: sim.clientSecret });
  });
  after(() => sim.close());

  it('creates and reads a cob, and sees the Pix that paid it', async () => {
    const created = await psp.createCharge('cob', txid(1), {
      calendario: { expiracao: 3600 },
      valor: { original: '123.45' },
      chave: 'loja@example.com',
      solicitacaoPagador: 'Pedido 77',
    });
    expect(created).to.include({ txid: txid(1), status: 'ATIVA', chave: 'loja@example.com' });
    expect(created.loc?.tipoCob).to.equal('cob');
    const paid = sim.pay({ txid: txid(1) });
    expect(paid).to.not.have.property('error');
    const again = await psp.getCharge('cob', txid(1));
    expect(again.status).to.equal('CONCLUIDA');
    expect(again.pix).to.have.length(1);
    expect(again.pix![0]).to.include({ txid: txid(1), valor: '123.45' });
    const e2e = again.pix![0].endToEndId;
    expect(e2e).to.match(/^E\d{8}\d{12}[0-9a-f]{11}$/);
    expect((await psp.getPix(e2e)).valor).to.equal('123.45');
    const list = await psp.listPix({
      inicio: new Date(Date.now() - 60_000).toISOString(),
      fim: new Date(Date.now() + 60_000).toISOString(),
      txid: txid(1),
    });
    expect(list.map((p) => p.endToEndId)).to.deep.equal([e2e]);
  });

  it('creates a cobv with due date, fine, interest and discount', async () => {
    const c = await psp.createCharge('cobv', txid(2), {
      calendario: { dataDeVencimento: '2026-12-31', validadeAposVencimento: 30 },
      devedor: { cpf: '12345678909', nome: 'Maria da Silva' },
      valor: {
        original: '500.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '0.03' },
        desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-12-20', valorPerc: '10.00' }] },
      },
      chave: 'loja@example.com',
    });
    expect(c.calendario.dataDeVencimento).to.equal('2026-12-31');
    expect(c.valor.multa).to.deep.equal({ modalidade: 2, valorPerc: '2.00' });
    expect((await psp.getCharge('cobv', txid(2))).loc?.tipoCob).to.equal('cobv');
  });

  it("answers the PSP's refusals and unknowns as PSP errors (502), with the PSP's reason", async () => {
    const refused = await psp
      .createCharge('cob', 'short', { calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: 'k' })
      .catch((e: PspError) => e);
    expect(refused).to.be.instanceOf(PspError);
    expect(refused).to.include({ code: 'PSP_REJECTED', pspStatus: 400 });
    expect((refused as PspError).message).to.match(/txid/);
    const missing = await psp.getCharge('cob', txid(999)).catch((e: PspError) => e);
    expect(missing).to.include({ code: 'PSP_NOT_FOUND', pspStatus: 404 });
    const bad = new HttpPixPsp({ baseUrl: sim.apiUrl, clientId: sim.clientId, clientSecret: 'wrong' });
    expect(await bad.getPix('E1').catch((e: PspError) => e.code)).to.equal('PSP_AUTH_FAILED');
    const down = new HttpPixPsp({ baseUrl: 'http://127.0.0.1:9/api/v2', clientId: 'a', clientSecret: 'b', timeoutMs: 500 });
    expect(await down.getPix('E1').catch((e: PspError) => e.code)).to.equal('PSP_UNAVAILABLE');
  });

  it('takes a new token once when the PSP revoked it', async () => {
    await psp.createCharge('cob', txid(3), { calendario: { expiracao: 60 }, valor: { original: '1.00' }, chave: 'k' });
    sim.revokeTokens();
    expect((await psp.getCharge('cob', txid(3))).txid).to.equal(txid(3));
  });

  it('refunds a Pix (devolução), by id idempotently and never above what is left', async () => {
    await psp.createCharge('cob', txid(4), { calendario: { expiracao: 60 }, valor: { original: '50.00' }, chave: 'k' });
    const pix = sim.pay({ txid: txid(4) }) as { endToEndId: string };
    const r1 = await psp.requestRefund(pix.endToEndId, 'dev1', { valor: '20.00' });
    expect(r1).to.include({ id: 'dev1', valor: '20.00' });
    expect((await psp.requestRefund(pix.endToEndId, 'dev1', { valor: '20.00' })).rtrId).to.equal(r1.rtrId);
    expect((await psp.getRefund(pix.endToEndId, 'dev1')).status).to.equal('DEVOLVIDO');
    const over = await psp.requestRefund(pix.endToEndId, 'dev2', { valor: '30.01' }).catch((e: PspError) => e);
    expect(over).to.include({ code: 'PSP_REJECTED' });
    expect((await psp.getPix(pix.endToEndId)).devolucoes).to.have.length(1);
  });

  it('never calls the PSP inside an open database transaction', async () => {
    const err = await inTransaction(NO_UNIT, () => psp.getPix('E1')).catch((e: Error) => e);
    expect(String(err)).to.match(/Pix PSP while a database transaction is open/);
  });
});
