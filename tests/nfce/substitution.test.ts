import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId, encodeId } from '../../src/core/hashids';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { VER_PROC } from '../../src/modules/outbound-nfe/xml/nfe-xml';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { counterSigning } from '../../src/modules/nfce/issue.service';
import { registerIssuerEvent } from '../../src/modules/outbound-nfe';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';
import { accessKeyCheckDigit } from '../../src/modules/fiscal-xml/access-key';
import { closeAuthorityConnections } from '../../src/modules/authority/soap/https-transport';
import { brasiliaDateTime } from '../../src/modules/authority/xml/events';
import { TP_CANCELAMENTO_SUBSTITUICAO } from '../../src/modules/authority/xml/outbound';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { eventsOf } from '../sales-order/support';
import { clock, HOUR } from '../sefaz/support';
import { canVerifySignature, xmlsecErrors } from '../invoices/conformance-support';
import type { InvoiceTenant } from '../invoices/support';
import { Counter, counterTenant, notesOf } from './support';

/*
 * Issue 31, substitution cancellation (110112, SPEC §12.3): a sale whose online attempt got no answer
 * prints an offline note with a number of its own; once that note is authorized, the attempt is
 * settled — cancelled by substitution when the authority has it (chNFeRef = the printed note's key),
 * its number voided when it never got there. By the queue, or on demand through the route. And the
 * local authority answers 110112 as the layout's rules want: substitute unknown, not authorized,
 * another issuer's, or the cancelled note itself offline → refused.
 */

const JUSTIFICATION = 'Venda registrada na NFC-e emitida em contingencia';

describe('NFC-e substitution cancellation (110112)', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let c: Counter;

  /** A sale whose online attempt is lost (`fault`); answers the note's detail (with `original`). */
  const afterLostAttempt = async (fault: 'delayMs' | 'dropBeforeAuthorize') => {
    // On a new connection: the drop is then a lost answer (on a kept one it would be taken for the
    // server's idle close, consulted and sent again: tests/nfce/keep-alive.test.ts).
    closeAuthorityConnections();
    if (fault === 'delayMs') t.sim.issuer.faults.delayMs = 1500;
    else t.sim.issuer.faults.dropBeforeAuthorize = 1;
    const res = await c.sell();
    t.sim.issuer.faults.delayMs = 0;
    t.sim.issuer.faults.dropBeforeAuthorize = 0;
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument).to.include({ status: 'CONTINGENCY', contingency: true });
    const detail = await api().get(`/api/nfce/detail/${res.body.fiscalDocument.id}`).set(t.headers());
    expect(detail.body.original).to.include({ outcome: 'PENDING' });
    return detail.body;
  };
  const row = (id: string) => dataSource.manager.findOneByOrFail(NfceDocument, { id: decodeId('nfce', id) });
  const numbersAccountedFor = async () => {
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId, filialId: t.filialIds[0], model: 65 });
    const used = (await notesOf(t))
      .flatMap((x) => (x.onlineNumber !== null ? [x.number, x.onlineNumber] : [x.number]))
      .sort((a, b) => a - b);
    expect(used).to.deep.equal(Array.from({ length: series.nextNumber - 1 }, (_v, i) => i + 1));
  };

  before(async () => {
    c = await counterTenant();
    t = c.t;
    other = await createTestTenant();
    await c.save({ syncTimeoutMs: 500 });
  });

  afterEach(() => {
    Object.assign(t.sim.issuer.faults, { delayMs: 0, dropBeforeAuthorize: 0 });
    t.sim.issuer.downFor(0);
  });

  it('the attempt never reached the authority: once the printed note is authorized, its number is voided', async () => {
    const f = await afterLostAttempt('dropBeforeAuthorize');
    expect(f.number).to.equal(f.original.number + 1);
    expect(t.sim.issuer.document(f.original.accessKey)).to.equal(undefined);
    const eventsBefore = (await eventsOf(t)).at(-1)!.id;
    await runNfceQueue();
    const settled = await row(f.id);
    expect(settled).to.include({ status: 'AUTHORIZED', accessKey: f.accessKey, originalOutcome: 'VOIDED' });
    expect(settled.originalProtocol).to.match(/^\d{15}$/);
    const proc = gunzipText(settled.originalXmlGz!);
    expect(proc)
      .to.contain('<procInutNFe')
      .and.contain(`<mod>65</mod><serie>1</serie><nNFIni>${f.original.number}</nNFIni><nNFFin>${f.original.number}</nNFFin>`)
      .and.contain('<cStat>102</cStat>');
    if (canVerifySignature) expect(xmlsecErrors(proc, 'infInut')).to.equal(null);
    expect((await eventsOf(t, eventsBefore)).map((e) => e.type)).to.include.members(['nfce.transmitted', 'nfce.original-voided']);
    await numbersAccountedFor();
  });

  it('POST /nfce/:id/cancel-original: 400, 404, 409 without an attempt or before the note is authorized; past the deadline 422 (nothing changes); then 200 SUBSTITUTED', async () => {
    // A note sold online (before any waits in contingency: later sales would join those offline).
    const plain = await c.sell();
    expect(plain.body.fiscalDocument.status).to.equal('AUTHORIZED');
    const f = await afterLostAttempt('delayMs');
    const url = `/api/nfce/${f.id}/cancel-original`;
    // Not authorized yet: the authority would refuse a substitute it does not hold; nothing is sent.
    expectProblem(await api().post(url).set(t.headers()).send({ justification: JUSTIFICATION }), 409, 'NFCE_CONTINGENCY');
    expectProblem(await api().post(url).set(t.headers()).send({ justification: 'curta' }), 400);
    expectProblem(await api().post(url).set(t.headers()).send({}), 400);
    expectProblem(await api().post(url).set(other.headers()).send({ justification: JUSTIFICATION }), 404, 'NFCE_NOT_FOUND');
    expectProblem(
      await api()
        .post(url)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
        .send({ justification: JUSTIFICATION }),
      403,
    );
    expectProblem(
      await api().post(`/api/nfce/${plain.body.fiscalDocument.id}/cancel-original`).set(t.headers()).send({ justification: JUSTIFICATION }),
      409,
      'NO_SUBSTITUTION_PENDING',
    );

    // The authority's clock 25 hours on: the queue authorizes the printed note, the substitution is refused as late (501) and waits.
    clock.advance(25 * HOUR);
    try {
      await runNfceQueue();
      expect(await row(f.id)).to.include({ status: 'AUTHORIZED', originalOutcome: 'PENDING' });
      expectProblem(await api().post(url).set(t.headers()).send({ justification: JUSTIFICATION }), 422, 'CANCELLATION_DEADLINE_PASSED');
      expect(await row(f.id)).to.include({ originalOutcome: 'PENDING', originalProtocol: null });
      expect(t.sim.issuer.document(f.original.accessKey)?.status).to.equal('AUTHORIZED');
    } finally {
      clock.advance(-25 * HOUR);
    }

    const ok = await api().post(url).set(t.headers()).send({ justification: JUSTIFICATION });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body).to.include({ status: 'AUTHORIZED', accessKey: f.accessKey });
    expect(ok.body.original).to.include({ number: f.original.number, accessKey: f.original.accessKey, outcome: 'SUBSTITUTED' });
    expect(t.sim.issuer.document(f.original.accessKey)?.status).to.equal('CANCELLED');
    const proc = gunzipText((await row(f.id)).originalXmlGz!);
    expect(proc).to.contain(`<xJust>${JUSTIFICATION}</xJust><chNFeRef>${f.accessKey}</chNFeRef>`);
    expectProblem(await api().post(url).set(t.headers()).send({ justification: JUSTIFICATION }), 409, 'NO_SUBSTITUTION_PENDING');
    await numbersAccountedFor();
  });

  it("the local authority's rules: the substitute must exist, be authorized, be the same issuer's offline NFC-e; the note cancelled must be a normal one", async () => {
    // A normal note (A), offline notes authorized (B) and cancelled (C) of this issuer, and another issuer's (D).
    const a = (await c.sell()).body.fiscalDocument;
    expect(a.status).to.equal('AUTHORIZED');
    const offline = async (counter: Counter) => {
      counter.t.sim.issuer.downFor(600_000);
      const r = await counter.sell();
      counter.t.sim.issuer.downFor(0);
      expect(r.body.fiscalDocument.status).to.equal('CONTINGENCY');
      await runNfceQueue();
      return row(r.body.fiscalDocument.id);
    };
    const b = await offline(c);
    const cNote = await offline(c);
    const cc = await api()
      .post(`/api/nfce/${encodeId('nfce', cNote.id)}/cancel`)
      .set(t.headers())
      .send({ justification: 'Venda cancelada a pedido do cliente' });
    expect(cc.status, JSON.stringify(cc.body)).to.equal(200);
    const u = await counterTenant();
    await u.save();
    const d = await offline(u);
    for (const n of [b, d]) expect(t.sim.issuer.document(n.accessKey)?.status).to.equal('AUTHORIZED');

    const s = await counterSigning(t.companyId, t.filialIds[0]);
    const send = (ref: string, key: string = a.accessKey, protocol: string = a.protocol) =>
      registerIssuerEvent(
        s,
        {
          tpEvento: TP_CANCELAMENTO_SUBSTITUICAO,
          cOrgao: '35',
          tpAmb: s.tpAmb,
          cnpj: s.filial.cnpj,
          accessKey: key,
          at: brasiliaDateTime(new Date()),
          sequence: 1,
          protocol,
          text: JUSTIFICATION,
          referencedKey: ref,
          appVersion: VER_PROC,
        },
        'substitution cancellation',
      ).then(
        (r) => r.cStat,
        (err) => `${err.code} ${err.extensions?.cStat}`,
      );
    const unknown43 = `${b.accessKey.slice(0, 35)}${b.accessKey[35] === '1' ? '2' : '1'}${b.accessKey.slice(36, 43)}`;
    expect(await send(`${unknown43}${accessKeyCheckDigit(unknown43)}`)).to.equal('SEFAZ_REJECTED 494');
    expect(await send(cNote.accessKey)).to.equal('SEFAZ_REJECTED 580');
    expect(await send(d.accessKey)).to.equal('SEFAZ_REJECTED 574');
    expect(await send(a.accessKey)).to.equal('SEFAZ_REJECTED 225');
    expect(await send(b.accessKey, b.accessKey, b.protocol!)).to.equal('SEFAZ_REJECTED 490');
    expect(await send(b.accessKey, a.accessKey, '135000000000000')).to.equal('SEFAZ_REJECTED 222');
    expect(t.sim.issuer.document(a.accessKey)?.status).to.equal('AUTHORIZED');
    // Accepted: A cancelled by substitution, referencing B; asked again, 573 (registered before).
    expect(await send(b.accessKey)).to.equal('135');
    expect(t.sim.issuer.document(a.accessKey)?.status).to.equal('CANCELLED');
    expect(t.sim.issuer.document(a.accessKey)?.events.map((e) => e.tpEvento)).to.deep.equal(['110112']);
    expect(await send(b.accessKey)).to.equal('573');
  });
});
