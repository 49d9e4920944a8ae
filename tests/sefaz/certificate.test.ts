import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { validateSefazConfig } from '../../src/core/config/sefaz';
import { open, seal } from '../../src/modules/sefaz/certificate/sealed-box';
import { parsePfx } from '../../src/modules/sefaz/certificate/pfx';
import { SefazCertificate } from '../../src/modules/sefaz/entities/sefaz-certificate.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { authority, filialCnpj, NFE, rowsOf } from './support';

const DAY = 86_400_000;

describe('A1 certificate of a filial (PUT/GET /entry-document/nfe/certificado/:filialId)', function () {
  this.timeout(30_000);
  let t: TestTenant;
  let cnpj: string;
  let sim: Awaited<ReturnType<typeof authority>>['sim'];
  const url = (i = 0) => `${NFE}/certificado/${t.filialHashes[i]}`;
  const upload = (pfx: Buffer, password: string) => ({ pfx: pfx.toString('base64'), password });

  before(async () => {
    ({ sim } = await authority());
    t = await createTestTenant();
    cnpj = await filialCnpj(t);
  });

  it('uploads: subject, CNPJ and expiry visible; the file and password sealed, never returned', async () => {
    const a1 = sim.issueClientCertificate(cnpj, 'MERCADO TESTE LTDA', 'segredo-123');
    const res = await api().put(url()).set(t.headers()).send(upload(a1.pfx, 'segredo-123'));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ filialId: t.filialHashes[0], cnpj, expired: false, version: 1, uploadedBy: 'test-user' });
    expect(res.body.subject).to.contain(`CN=MERCADO TESTE LTDA:${cnpj}`);
    expect(res.body.daysToExpiry).to.be.within(360, 366);
    expect(JSON.stringify(res.body)).not.to.match(/segredo|pfx|password|BEGIN/i);

    const [row] = await rowsOf('sefaz_certificate', t.companyId);
    expect(row.cnpj).to.equal(cnpj);
    const sealed = Buffer.from(row.sealed);
    expect(sealed.includes(Buffer.from('segredo-123'))).to.equal(false);
    expect(sealed.includes(a1.pfx.subarray(0, 64))).to.equal(false);
    const audit = await rowsOf('audit_log', t.companyId, "entity = 'sefaz-certificate'");
    expect(audit.map((a) => a.action)).to.deep.equal(['CREATED']);
    expect(String(audit[0].changes)).not.to.contain('segredo');
    expect(await rowsOf('outbox_event', t.companyId, "type = 'nfe.certificate.updated'")).to.have.length(1);

    const got = await api().get(url()).set(t.headers());
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(res.body);
  });

  it('replaces: a new version, audited', async () => {
    const a1 = sim.issueClientCertificate(cnpj, 'MERCADO TESTE LTDA', 'outra');
    const res = await api().put(url()).set(t.headers()).send(upload(a1.pfx, 'outra'));
    expect(res.status).to.equal(200);
    expect(res.body.version).to.equal(2);
    expect(res.body.fingerprint).to.equal(parsePfx(a1.pfx, 'outra').fingerprint);
    expect(await rowsOf('sefaz_certificate', t.companyId)).to.have.length(1);
    expect((await rowsOf('audit_log', t.companyId, "entity = 'sefaz-certificate'")).map((a) => a.action)).to.deep.equal([
      'CREATED',
      'REPLACED',
    ]);
  });

  it('a root CNPJ of a branch of the same company is accepted', async () => {
    const t2 = await createTestTenant();
    const branch = (await filialCnpj(t2)).slice(0, 8) + '0002';
    const { cnpjWithCheckDigits } = await import('../../src/core/br-documents');
    const a1 = sim.issueClientCertificate(cnpjWithCheckDigits(branch), 'MATRIZ', 'x');
    const res = await api().put(`${NFE}/certificado/${t2.filialHashes[0]}`).set(t2.headers()).send(upload(a1.pfx, 'x'));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });

  describe('refused with 422, nothing written', () => {
    let other: TestTenant;
    before(async () => {
      other = await createTestTenant();
    });
    const nothingWritten = async () => expect(await rowsOf('sefaz_certificate', other.companyId)).to.have.length(0);
    const put = (body: object) => api().put(`${NFE}/certificado/${other.filialHashes[0]}`).set(other.headers()).send(body);

    it('wrong password', async () => {
      const a1 = sim.issueClientCertificate(await filialCnpj(other), 'X', 'right');
      expectProblem(await put(upload(a1.pfx, 'wrong')), 422, 'CERTIFICATE_PASSWORD_INVALID');
      await nothingWritten();
    });

    it('not a PKCS#12 file', async () => {
      expectProblem(await put({ pfx: Buffer.from('not a certificate').toString('base64'), password: 'x' }), 422, 'CERTIFICATE_UNREADABLE');
      await nothingWritten();
    });

    it('expired', async () => {
      const a1 = sim.issueClientCertificate(await filialCnpj(other), 'X', 'x', {
        notBefore: new Date(Date.now() - 400 * DAY),
        notAfter: new Date(Date.now() - DAY),
      });
      const res = await put(upload(a1.pfx, 'x'));
      expectProblem(res, 422, 'CERTIFICATE_EXPIRED');
      await nothingWritten();
    });

    it('of another CNPJ root', async () => {
      const a1 = sim.issueClientCertificate(randomCnpj(), 'OUTRA EMPRESA', 'x');
      const res = await put(upload(a1.pfx, 'x'));
      expectProblem(res, 422, 'CERTIFICATE_CNPJ_MISMATCH');
      expect(res.body.filialCnpj).to.equal(await filialCnpj(other));
      await nothingWritten();
    });
  });

  it('bad input → 400 with field paths', async () => {
    const res = await api().put(url()).set(t.headers()).send({ pfx: '***', extra: 1 });
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(['extra', 'password', 'pfx']);
  });

  it('no certificate yet → 404; a filial not granted, another company’s filial or no scope → 403', async () => {
    expectProblem(await api().get(url(1)).set(t.headers()), 404, 'CERTIFICATE_NOT_FOUND');
    const b = await createTestTenant();
    expectProblem(await api().get(`${NFE}/certificado/${b.filialHashes[0]}`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(
      await api()
        .get(url(1))
        .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
      403,
      'FILIAL_NOT_GRANTED',
    );
    const a1 = sim.issueClientCertificate(cnpj, 'X', 'x');
    expectProblem(
      await api()
        .put(url())
        .set(t.headersWith({ scope: 'nfe:read nfe:write' }))
        .send(upload(a1.pfx, 'x')),
      403,
      'INSUFFICIENT_SCOPE',
    );
    const allowed = await api()
      .put(url())
      .set(t.headersWith({ scope: 'nfe:*' }))
      .send(upload(a1.pfx, 'x'));
    expect(allowed.status).to.equal(200);
  });

  it('two uploads at once: both answered, one row, versions in sequence', async () => {
    const t3 = await createTestTenant();
    const c3 = await filialCnpj(t3);
    const [a, b] = [sim.issueClientCertificate(c3, 'A', 'a'), sim.issueClientCertificate(c3, 'B', 'b')];
    const res = await Promise.all([
      api().put(`${NFE}/certificado/${t3.filialHashes[0]}`).set(t3.headers()).send(upload(a.pfx, 'a')),
      api().put(`${NFE}/certificado/${t3.filialHashes[0]}`).set(t3.headers()).send(upload(b.pfx, 'b')),
    ]);
    expect(res.every((r) => [200, 409].includes(r.status))).to.equal(true);
    expect(res.some((r) => r.status === 200)).to.equal(true);
    const rows = await dataSource.manager.findBy(SefazCertificate, { companyId: t3.companyId });
    expect(rows).to.have.length(1);
    expect(rows[0].version).to.equal(res.filter((r) => r.status === 200).length);
  });

  describe('sealing', () => {
    it('AES-256-GCM bound to company and filial: another binding or a changed byte does not open', () => {
      const sealed = seal(Buffer.from('{"pfx":"x","password":"y"}'), 'sefaz-certificate:1:2');
      expect(open(sealed, 'sefaz-certificate:1:2').toString()).to.equal('{"pfx":"x","password":"y"}');
      expect(() => open(sealed, 'sefaz-certificate:1:3')).to.throw();
      const tampered = Buffer.from(sealed);
      tampered[tampered.length - 1] ^= 1;
      expect(() => open(tampered, 'sefaz-certificate:1:2')).to.throw();
    });

    it('CERT_ENCRYPTION_KEY: 32 bytes (hex or base64), required in production', () => {
      expect(() => validateSefazConfig({ CERT_ENCRYPTION_KEY: 'short' })).to.throw(/CERT_ENCRYPTION_KEY/);
      expect(() => validateSefazConfig({ NODE_ENV: 'production' })).to.throw(/CERT_ENCRYPTION_KEY/);
      expect(validateSefazConfig({ CERT_ENCRYPTION_KEY: 'ab'.repeat(32) }).certificateKey).to.have.length(32);
      expect(validateSefazConfig({}).endpoints.PRODUCTION.dist).to.equal(
        'https://www1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
      );
      expect(validateSefazConfig({}).endpoints.HOMOLOGATION.event).to.equal(
        'https://hom1.nfe.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx',
      );
    });
  });
});
