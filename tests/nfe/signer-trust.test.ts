import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { createCertificateAuthority } from '../../src/dev/sefaz-simulator/pki';
import { evaluateSigner } from '../../src/modules/fiscal-xml/signer-trust';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { makeProduct, stockOf } from '../support/catalog';
import { buildNfe, DEFAULT_ISSUER_CNPJ, NfeSpec } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { testCertificate, testRootCa } from '../support/test-certificate';
import { sefazTenant, SefazTenant } from '../sefaz/support';
import { authorityConfirmed, NFE, rowsOf } from './nfe-support';

/*
 * Who signed it (issue 34 item 8, SPEC §2; docs/decisions/signer-trust.md): the signer's certificate
 * must chain to the installed roots (the suite installs its test root through NFE_TRUSTED_ROOTS,
 * tests/env.js), name the issuer's CNPJ root and be valid at signing; an XML uploaded by hand is
 * confirmed only after the authority answered for its key with its digest (the local simulator here),
 * unless a HOMOLOGATION filial allows unverified uploads. Untrusted documents import (their report
 * says why) and their confirmation is refused with the reason.
 */

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/nfe');
const hasFixtures = fs.existsSync(FIXTURES);
const SUPPLIER = DEFAULT_ISSUER_CNPJ;

const signerCheck = (report: { checks: any[] }) =>
  report.checks.find((c) => c.check === 'SIGNER') as {
    outcome: string;
    blocking: boolean;
    code: string | null;
    details: any;
    message: string;
  };

describe('NF-e signer trust: the chain, the CNPJ root, the validity', () => {
  let t: TestTenant;
  let document: string;
  let productId: string;
  before(async () => {
    t = await createTestTenant();
    document = (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] })).cnpj;
    productId = (await makeProduct(t)).hash;
  });

  let seq = 7000;
  const nfe = (over: Partial<NfeSpec> = {}) =>
    buildNfe({
      number: ++seq + Math.floor(Math.random() * 100000) * 10,
      recipient: { cnpj: document },
      items: [{ code: 'S1', description: 'CAFE TORRADO 500G', quantity: '4', unitPrice: '12.50' }],
      ...over,
    });
  const preview = (xml: string) => api().post(`${NFE}/preview`).set(t.headers()).send({ xml });
  const importXml = (xml: string) =>
    api()
      .post(`${NFE}/importar-xml`)
      .set(t.headers())
      .send({ xml, items: [{ lineNumber: 1, productId }] });

  /** Imports, lets the authority confirm the key, and tries to confirm the draft. */
  async function importAndConfirm(xml: string, accessKey: string) {
    const imported = await importXml(xml);
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    await authorityConfirmed(t, accessKey);
    const id = imported.body.entryDocument.id;
    const pre = await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers());
    const confirmed = await api().post(`/api/entry-document/confirm/${id}`).set(t.headers());
    return { imported, pre, confirmed, id };
  }

  it('a trusted signer (the issuer, chained to the installed root) passes and the document confirms', async () => {
    const built = nfe();
    const res = await preview(built.xml);
    expect(res.status).to.equal(200);
    const c = signerCheck(res.body.report);
    expect(c).to.include({ outcome: 'PASS', code: null });
    expect(c.details).to.deep.include({ verdict: 'TRUSTED', reasons: [], signerDocument: SUPPLIER });
    expect(c.details.chain[1]).to.contain('AC Raiz de Teste');
    const r = await importAndConfirm(built.xml, built.accessKey);
    expect(r.imported.body.inbound.signer).to.deep.equal({ verdict: 'TRUSTED', reasons: [], signerDocument: SUPPLIER });
    expect(r.confirmed.status, JSON.stringify(r.confirmed.body)).to.equal(200);
  });

  it('another branch of the same company (same CNPJ root) signs for the issuer: trusted', async () => {
    const branch = `${SUPPLIER.slice(0, 8)}0002`;
    const { cnpjWithCheckDigits } = await import('../../src/core/br-documents');
    const c = signerCheck((await preview(nfe({ signer: { cnpj: cnpjWithCheckDigits(branch) } }).xml)).body.report);
    expect(c.details.verdict).to.equal('TRUSTED');
  });

  it('self-signed, naming an unrelated CNPJ: imported as UNTRUSTED, confirmation refused naming the reason, nothing posted', async () => {
    const stranger = randomCnpj();
    const built = nfe({ signer: { selfSigned: true, cnpj: stranger, name: 'QUALQUER UM LTDA' } });
    const c = signerCheck((await preview(built.xml)).body.report);
    expect(c).to.include({ outcome: 'FAIL', blocking: false, code: 'NFE_SIGNER_UNTRUSTED' });
    expect(c.details.reasons).to.include.members(['SELF_SIGNED', 'ISSUER_MISMATCH']);
    expect(c.details.signerDocument).to.equal(stranger);
    // The XMLDSig itself is valid: that alone used to be enough.
    expect((await preview(built.xml)).body.report.checks.find((x: { check: string }) => x.check === 'SIGNATURE').outcome).to.equal('PASS');

    const r = await importAndConfirm(built.xml, built.accessKey);
    expect(r.imported.body.inbound.signer.verdict).to.equal('UNTRUSTED');
    expect(r.pre.body.blockingProblems.map((p: { code: string }) => p.code)).to.include('NFE_SIGNER_UNTRUSTED');
    expectProblem(r.confirmed, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
    expect(r.confirmed.body.detail).to.contain('NFE_SIGNER_UNTRUSTED');
    const problem = r.confirmed.body.problems.find((p: { code: string }) => p.code === 'NFE_SIGNER_UNTRUSTED');
    expect(problem.message)
      .to.match(/self-signed/)
      .and.match(new RegExp(stranger));
    const docId = (await import('../../src/core/hashids')).decodeId('entry-document', r.id);
    expect(
      await dataSource.manager.countBy(StockMovement, { companyId: t.companyId, referenceId: docId, referenceType: 'entry-document' }),
    ).to.equal(0);
    expect(await dataSource.manager.countBy(Payable, { companyId: t.companyId, entryDocumentId: docId })).to.equal(0);
    const detail = await api().get(`/api/entry-document/detail/${r.id}`).set(t.headers());
    expect(detail.body.status).to.equal('DRAFT');
    expect(detail.body.nfe.signer.verdict).to.equal('UNTRUSTED');
  });

  it('chained to the installed root but naming another company (CNPJ root differs): UNTRUSTED, ISSUER_MISMATCH only', async () => {
    const other = randomCnpj();
    const built = nfe({ signer: { cnpj: other, name: 'OUTRA EMPRESA SA' } });
    const c = signerCheck((await preview(built.xml)).body.report);
    expect(c.details.verdict).to.equal('UNTRUSTED');
    expect(c.details.reasons).to.deep.equal(['ISSUER_MISMATCH']);
    expect(c.details.chain[1]).to.contain('AC Raiz de Teste');
    const r = await importAndConfirm(built.xml, built.accessKey);
    expectProblem(r.confirmed, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
    expect(r.confirmed.body.problems.map((p: { code: string }) => p.code)).to.include('NFE_SIGNER_UNTRUSTED');
  });

  it('a chain ending at a root nobody installed (sent in KeyInfo): UNTRUSTED_ROOT; the same leaf alone is "chain not verifiable" (a warning)', async () => {
    const rogue = createCertificateAuthority('AC Raiz Paralela');
    const withChain = nfe({ signer: { ca: rogue, withChain: true } });
    expect(withChain.xml.match(/<X509Certificate>/g)).to.have.length(2);
    const c = signerCheck((await preview(withChain.xml)).body.report);
    expect(c.details).to.deep.include({ verdict: 'UNTRUSTED', reasons: ['UNTRUSTED_ROOT'] });
    expect(c.details.chain).to.have.length(2);
    const r = await importAndConfirm(withChain.xml, withChain.accessKey);
    expect(r.confirmed.status).to.equal(422);

    const leafOnly = nfe({ signer: { ca: rogue } });
    const u = signerCheck((await preview(leafOnly.xml)).body.report);
    expect(u).to.include({ outcome: 'FAIL', blocking: false, code: 'NFE_SIGNER_CHAIN_NOT_VERIFIABLE' });
    expect(u.details).to.deep.include({ verdict: 'UNVERIFIABLE', reasons: ['CHAIN_NOT_VERIFIABLE'] });
    const ok = await importAndConfirm(leafOnly.xml, leafOnly.accessKey);
    expect(ok.pre.body.warnings.map((w: { code: string }) => w.code)).to.include('NFE_SIGNER_CHAIN_NOT_VERIFIABLE');
    expect(ok.confirmed.status, JSON.stringify(ok.confirmed.body)).to.equal(200);
  });

  it('a certificate not valid when the document was signed (expired before dhRecbto): UNTRUSTED, NOT_VALID_AT_SIGNING', async () => {
    const built = nfe({
      issuedAt: '2025-03-10T10:00:00-03:00',
      signer: { notBefore: new Date('2023-01-01T00:00:00Z'), notAfter: new Date('2024-12-31T23:59:59Z') },
    });
    const c = signerCheck((await preview(built.xml)).body.report);
    expect(c.details.reasons).to.deep.equal(['NOT_VALID_AT_SIGNING']);
  });

  it('an unsigned or tampered document: the signer is not judged (SIGNATURE already blocks)', async () => {
    const c = signerCheck((await preview(nfe({ unsigned: true }).xml)).body.report);
    expect(c.outcome).to.equal('SKIPPED');
  });

  it('the verdict is computed once per certificate set (the store and the chain are cached): far below parsing and verifying the chain', () => {
    const cert = testCertificate(SUPPLIER, 'FORNECEDOR TESTE LTDA');
    const subject = { certificates: [cert.certificateBase64], issuerDocument: SUPPLIER, signedAt: '2025-03-10T10:00:00-03:00' };
    evaluateSigner(subject);
    const time = (n: number, fn: () => void) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < n; i++) fn();
      return Number(process.hrtime.bigint() - started) / n;
    };
    const cached = time(1000, () => evaluateSigner(subject));
    // The floor: what the cache saves — reading the certificate and verifying its link to the root.
    const root = new X509Certificate(testRootCa().certPem);
    const floor = time(100, () => {
      const c = new X509Certificate(Buffer.from(cert.certificateBase64, 'base64'));
      c.checkIssued(root);
      c.verify(root.publicKey);
    });
    expect(cached).to.be.below(floor / 5);
  });

  (hasFixtures ? describe : describe.skip)('the real ICP-Brasil samples (../shared/fixtures), whose ACs are not installed here', () => {
    it('report "chain not verifiable" (a warning), name their issuer, and still import', async () => {
      const file = 'procNFe-v400-prod-sp-12itens-4duplicatas.xml';
      const xml = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
      const dest = /<dest><CNPJ>(\d{14})<\/CNPJ>/.exec(xml)![1];
      const emit = /<emit><CNPJ>(\d{14})<\/CNPJ>/.exec(xml)![1];
      const tenant = await createTestTenant();
      await dataSource.manager.update(Filial, { id: tenant.filialIds[0], companyId: tenant.companyId }, { cnpj: dest });
      const res = await api().post(`${NFE}/stage-xml`).set(tenant.headers()).send({ xml });
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
      const c = signerCheck(
        res.body.report ??
          res.body.inspection?.report ??
          (await api().post(`${NFE}/preview`).set(tenant.headers()).send({ xml })).body.report,
      );
      expect(c).to.include({ outcome: 'FAIL', blocking: false, code: 'NFE_SIGNER_CHAIN_NOT_VERIFIABLE' });
      expect(c.details.verdict).to.equal('UNVERIFIABLE');
      expect(c.details.signerDocument.slice(0, 8)).to.equal(emit.slice(0, 8));
    });
  });
});

describe('NF-e uploaded by hand: consulted at the authority (NFeConsultaProtocolo4) before confirmation', () => {
  let t: SefazTenant;
  let productId: string;
  before(async () => {
    t = await sefazTenant();
    productId = (await makeProduct(t)).hash;
  });

  let seq = 91000;
  const nfe = (over: Partial<NfeSpec> = {}) =>
    buildNfe({
      number: ++seq + Math.floor(Math.random() * 1000) * 100,
      recipient: { cnpj: t.cnpj },
      items: [{ code: 'U1', description: 'ACUCAR REFINADO 1KG', quantity: '10', unitPrice: '4.20' }],
      ...over,
    });
  const importXml = (xml: string, tenant: TestTenant = t) =>
    api()
      .post(`${NFE}/importar-xml`)
      .set(tenant.headers())
      .send({ xml, items: [{ lineNumber: 1, productId }] });
  const consult = (body: object, tenant: TestTenant = t) =>
    api().post(`${NFE}/consultar-protocolo`).set(tenant.headers()).set('Idempotency-Key', `k-${Math.random()}`).send(body);
  const confirm = (id: string) => api().post(`/api/entry-document/confirm/${id}`).set(t.headers());

  it('not found at the authority (217): recorded, and the document cannot be confirmed; once the authority has it: CONFIRMED, and it confirms', async () => {
    const built = nfe();
    const imported = await importXml(built.xml);
    expect(imported.status).to.equal(201);
    expect(imported.body.inbound.authorityCheck).to.equal(null);
    const id = imported.body.entryDocument.id;

    const before = await confirm(id);
    expectProblem(before, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
    const problem = before.body.problems.find((p: { code: string }) => p.code === 'NFE_AUTHORITY_UNVERIFIED');
    expect(problem.message).to.match(/never consulted/);

    const notFound = await consult({ accessKey: built.accessKey });
    expect(notFound.status, JSON.stringify(notFound.body)).to.equal(200);
    expect(notFound.body).to.include({ outcome: 'NOT_FOUND', cStat: '217' });
    expect(notFound.body.inbound.authorityCheck).to.include({ outcome: 'NOT_FOUND', cStat: '217' });
    const still = await confirm(id);
    expect(still.status).to.equal(422);
    expect(still.body.problems.find((p: { code: string }) => p.code === 'NFE_AUTHORITY_UNVERIFIED').message).to.match(
      /does not know its key/,
    );

    t.sim.authority.feed(built.xml);
    const found = await consult({ inboundId: imported.body.inbound.id });
    expect(found.body).to.include({ outcome: 'CONFIRMED', cStat: '100' });
    expect(found.body.protocol).to.be.a('string');
    const events = await rowsOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_CHECKED'");
    expect(events.map((e) => (typeof e.data === 'string' ? JSON.parse(e.data as string) : e.data).outcome)).to.deep.equal([
      'NOT_FOUND',
      'CONFIRMED',
    ]);

    const ok = await confirm(id);
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    const hashids = await import('../../src/core/hashids');
    expect((await stockOf(t, 0, hashids.decodeId('product', productId))).quantity).to.match(/^10(\.0+)?$/);
  });

  it('the authority authorized another version of the document (digVal differs): DIGEST_MISMATCH, still refused', async () => {
    const number = ++seq + 500000;
    const authorized = nfe({ number, additionalInfo: 'VERSAO AUTORIZADA' });
    const forged = nfe({
      number,
      additionalInfo: 'VERSAO ALTERADA',
      items: [{ code: 'U1', description: 'ACUCAR REFINADO 1KG', quantity: '10', unitPrice: '1.20' }],
    });
    expect(forged.accessKey).to.equal(authorized.accessKey);
    t.sim.authority.feed(authorized.xml);
    const imported = await importXml(forged.xml);
    expect(imported.status).to.equal(201);
    const r = await consult({ accessKey: forged.accessKey });
    expect(r.body).to.include({ outcome: 'DIGEST_MISMATCH', cStat: '100' });
    const refused = await confirm(imported.body.entryDocument.id);
    expect(refused.body.problems.find((p: { code: string }) => p.code === 'NFE_AUTHORITY_UNVERIFIED').message).to.match(/another version/);
  });

  it('documents the DF-e distribution delivered need no consultation', async () => {
    const built = nfe();
    t.sim.authority.feed(built.xml);
    const synced = await api()
      .post(`${NFE}/consultar-por-chave`)
      .set(t.headers())
      .set('Idempotency-Key', `k-${Math.random()}`)
      .send({ accessKey: built.accessKey });
    expect(synced.status, JSON.stringify(synced.body)).to.equal(200);
    expect(synced.body.inbound.source).to.equal('SEFAZ');
  });

  it("bad input (400, nothing written), an unknown key and another tenant's record (404)", async () => {
    const before = await rowsOf('nfe_inbound_event', t.companyId);
    expectProblem(await consult({}), 400, 'VALIDATION_ERROR');
    expectProblem(await consult({ accessKey: '123' }), 400, 'VALIDATION_ERROR');
    const built = nfe();
    expectProblem(await consult({ accessKey: built.accessKey, inboundId: 'x' }), 400);
    expectProblem(await consult({ accessKey: built.accessKey }), 404, 'NFE_INBOUND_NOT_FOUND');
    const other = await sefazTenant();
    const theirs = await api()
      .post(`${NFE}/importar-xml`)
      .set(other.headers())
      .send({ xml: buildNfe({ recipient: { cnpj: other.cnpj }, items: [{ quantity: '1', unitPrice: '1' }] }).xml });
    expect(theirs.status).to.equal(201);
    expectProblem(await consult({ inboundId: theirs.body.inbound.id }), 404, 'NFE_INBOUND_NOT_FOUND');
    expect(await rowsOf('nfe_inbound_event', t.companyId)).to.have.length(before.length);
  });
});

describe('Unverified uploads: a homologation filial may allow them; production refuses', () => {
  it('PATCH allowUnverifiedUploads on a PRODUCTION filial → 422, nothing changed; on HOMOLOGATION it is allowed and the upload confirms with a warning', async () => {
    const prod = await createTestTenant();
    const path0 = `/api/settings/filial/${prod.filialHashes[0]}`;
    const current = await api().get(path0).set(prod.headers());
    expect(current.body.allowUnverifiedUploads).to.equal(false);
    const refused = await api().patch(path0).set(prod.headers()).send({ version: current.body.version, allowUnverifiedUploads: true });
    expectProblem(refused, 422, 'UNVERIFIED_UPLOADS_PRODUCTION');
    expect((await api().get(path0).set(prod.headers())).body).to.include({ allowUnverifiedUploads: false, version: current.body.version });

    const hom = await createTestTenant({ environment: 'HOMOLOGATION' });
    const path1 = `/api/settings/filial/${hom.filialHashes[0]}`;
    const v = (await api().get(path1).set(hom.headers())).body.version;
    const allowed = await api().patch(path1).set(hom.headers()).send({ version: v, allowUnverifiedUploads: true });
    expect(allowed.status, JSON.stringify(allowed.body)).to.equal(200);
    expect(allowed.body.allowUnverifiedUploads).to.equal(true);
    // Moving it to production with the allowance on is refused too.
    expectProblem(
      await api().patch(path1).set(hom.headers()).send({ version: allowed.body.version, nfeEnvironment: 'PRODUCTION' }),
      422,
      'UNVERIFIED_UPLOADS_PRODUCTION',
    );

    const cnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: hom.filialIds[0] })).cnpj;
    const product = await makeProduct(hom);
    const built = buildNfe({
      environment: '2',
      recipient: { cnpj },
      items: [{ code: 'H1', description: 'FARINHA DE TRIGO 1KG', quantity: '3', unitPrice: '5' }],
    });
    const imported = await api()
      .post(`${NFE}/importar-xml`)
      .set(hom.headers())
      .send({ xml: built.xml, items: [{ lineNumber: 1, productId: product.hash }] });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const id = imported.body.entryDocument.id;
    const pre = await api().get(`/api/entry-document/confirm-preview/${id}`).set(hom.headers());
    expect(pre.body.warnings.map((w: { code: string }) => w.code)).to.include('NFE_AUTHORITY_UNVERIFIED');
    expect(pre.body.blockingProblems).to.deep.equal([]);
    expect((await api().post(`/api/entry-document/confirm/${id}`).set(hom.headers())).status).to.equal(200);

    // The allowance off again: the next upload is held until consulted.
    const again = await api().get(path1).set(hom.headers());
    await api().patch(path1).set(hom.headers()).send({ version: again.body.version, allowUnverifiedUploads: false });
    const next = buildNfe({
      environment: '2',
      recipient: { cnpj },
      items: [{ code: 'H1', description: 'FARINHA DE TRIGO 1KG', quantity: '1', unitPrice: '5' }],
    });
    const second = await api()
      .post(`${NFE}/importar-xml`)
      .set(hom.headers())
      .send({ xml: next.xml, items: [{ lineNumber: 1, productId: product.hash }] });
    expect((await api().post(`/api/entry-document/confirm/${second.body.entryDocument.id}`).set(hom.headers())).status).to.equal(422);
  });
});
