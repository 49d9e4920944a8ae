import { expect } from 'chai';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { waitForJob, zipOf } from '../nfe/batch-support';
import { countOf, NFE, rowsOf } from '../nfe/nfe-support';
import { CTE, cteTenant, CteTenant, stage } from './cte-support';

/*
 * CT-e files in a batch upload of the NF-e module stage through the CT-e module (its handler at the
 * batch's seam): checked as stage-xml checks them, stored RECEIVED with audit and event, duplicates
 * named, refusals with the CT-e's own codes; CT-e events are still not taken.
 */
describe('CT-e in a batch upload', function () {
  this.timeout(120_000);
  let t: CteTenant;
  let other: CteTenant;
  before(async () => {
    t = await cteTenant();
    other = await cteTenant();
  });

  it('stages valid CT-e, names duplicates and refuses what stage-xml refuses, beside NF-e', async () => {
    const nfe = await t.nfe({ items: [{ code: 'A1', quantity: '2', unitPrice: '10.00' }] });
    const fresh = t.cte({ total: '40.00', nfeKeys: [nfe.accessKey] });
    const second = t.cte({ total: '15.50', nfeKeys: [] });
    const already = t.cte({ total: '9.00', nfeKeys: [] });
    const alreadyId = await stage(t, already);
    const notPayer = t.cte({ total: '10.00', nfeKeys: [], payer: '0' });
    const unsigned = t.cte({ total: '10.00', nfeKeys: [], unsigned: true });
    const before = {
      cte: await countOf('cte', t.companyId),
      audit: await countOf('audit_log', t.companyId, "entity = 'cte'"),
      events: await countOf('outbox_event', t.companyId, "type = 'cte.received'"),
    };

    const zip = await zipOf([
      { name: 'nfe.xml', content: nfe.xml },
      { name: 'cte/novo.xml', content: fresh.xml },
      { name: 'cte/segundo.xml', content: second.xml },
      { name: 'cte/repetido.xml', content: fresh.xml },
      { name: 'cte/ja-enviado.xml', content: already.xml },
      { name: 'cte/cif.xml', content: notPayer.xml },
      { name: 'cte/sem-assinatura.xml', content: unsigned.xml },
      { name: 'cte/evento.xml', content: '<?xml version="1.0"?><procEventoCTe xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00"/>' },
    ]);
    const res = await api().post(`${NFE}/batch`).set(t.headers()).set('Content-Type', 'application/zip').send(zip);
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const done = await waitForJob(t, res.body.id, '?pageSize=100');
    expect(done.counts).to.deep.equal({ staged: 3, duplicates: 2, invalid: 3, pending: 0 });
    const by = Object.fromEntries(done.files.data.map((f: any) => [f.name, f]));

    expect(by['nfe.xml']).to.include({ outcome: 'STAGED', kind: 'NFE', cteId: null });
    expect(by['cte/novo.xml']).to.include({
      outcome: 'STAGED',
      kind: 'CTE',
      accessKey: fresh.accessKey,
      inboundId: null,
      problem: null,
      message: 'CT-e staged (RECEIVED)',
    });
    expect(by['cte/novo.xml'].cteId).to.be.a('string');
    expect(by['cte/segundo.xml']).to.include({ outcome: 'STAGED', kind: 'CTE', accessKey: second.accessKey });
    expect(by['cte/repetido.xml']).to.include({
      outcome: 'DUPLICATE',
      kind: 'CTE',
      cteId: by['cte/novo.xml'].cteId,
      message: 'CT-e already stored (RECEIVED)',
    });
    expect(by['cte/ja-enviado.xml']).to.include({ outcome: 'DUPLICATE', cteId: alreadyId });
    expect(by['cte/cif.xml']).to.include({ outcome: 'INVALID', kind: 'CTE', cteId: null });
    expect(by['cte/cif.xml'].problem.code).to.equal('CTE_PAYER_MISMATCH');
    expect(by['cte/sem-assinatura.xml'].problem.code).to.equal('CTE_SIGNATURE_MISSING');
    expect(by['cte/evento.xml']).to.include({ outcome: 'INVALID', kind: 'CTE' });
    expect(by['cte/evento.xml'].problem.code).to.equal('CTE_NOT_SUPPORTED');

    // Stored once each, as stage-xml stores them: RECEIVED, audit CREATED, event cte.received.
    expect(await countOf('cte', t.companyId)).to.equal(before.cte + 2);
    expect(await countOf('audit_log', t.companyId, "entity = 'cte'")).to.equal(before.audit + 2);
    const events = await rowsOf('outbox_event', t.companyId, "type = 'cte.received'");
    expect(events).to.have.length(before.events + 2);
    const detail = await api().get(`${CTE}/detail/${by['cte/novo.xml'].cteId}`).set(t.headers());
    expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
    expect(detail.body).to.include({ status: 'RECEIVED', accessKey: fresh.accessKey, serviceTotal: 40, version: 1 });
    expect(detail.body.nfe.map((l: any) => [l.accessKey, !!l.inbound])).to.deep.equal([[nfe.accessKey, true]]);

    // The batch's CT-e are the tenant's own: another tenant's token does not see them.
    expectProblem(await api().get(`${CTE}/detail/${by['cte/novo.xml'].cteId}`).set(other.headers()), 404, 'CTE_NOT_FOUND');

    // Another company's batch lists its own files only (the page is loaded by file id, not by seq).
    const theirs = t.cte({ total: '5.00', nfeKeys: [] });
    const upload = await api()
      .post(`${NFE}/batch`)
      .set(other.headers())
      .set('Content-Type', 'application/zip')
      .send(await zipOf([{ name: 'deles.xml', content: theirs.xml }]));
    expect(upload.status, JSON.stringify(upload.body)).to.equal(202);
    const job = await waitForJob(other, upload.body.id);
    expect(job.files.data.map((f: any) => [f.seq, f.name, f.kind, f.outcome])).to.deep.equal([[1, 'deles.xml', 'CTE', 'INVALID']]);
    expect(job.files.data[0].problem.code).to.equal('CTE_PAYER_MISMATCH');
  });
});
