import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { config } from '../../src/core/config';
import { dataSource } from '../../src/core/db/data-source';
import { signToken } from '../../src/core/auth/jwt';
import { encodeId } from '../../src/core/hashids';
import { parsePfx } from '../../src/modules/sefaz/certificate/pfx';
import { SefazEndpoint } from '../../src/modules/sefaz/entities/sefaz-endpoint.entity';
import { decodeDistReply, decodeEventReply, AuthorityClient } from '../../src/modules/authority/authority-client';
import { buildDistDFeInt } from '../../src/modules/authority/xml/dist-dfe';
import { buildSignedEnvEvento } from '../../src/modules/authority/xml/events';
import { buildRequestEnvelope, DIST_DFE, RECEPCAO_EVENTO, soapContentType } from '../../src/modules/authority/xml/soap';
import { startLocalAuthority } from '../../src/dev/sefaz-simulator/local-authority';
import { generateNfe, SAMPLE_ITEMS } from '../../src/dev/sefaz-simulator/nfe-generator';
import { createCertificateAuthority, issueA1, issueCertificate } from '../../src/dev/sefaz-simulator/pki';
import { DEMO_COMPANY_CNPJ, seedDemoTenant } from '../../src/demo/demo-seed';
import { DfeState } from '../../src/modules/dfe/entities/dfe-state.entity';
import { Company } from '../../src/modules/tenancy/entities/company.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { randomCnpj } from '../support/tenant';
import { authority, clock, fixture, hasFixtures, HOUR, NFE } from './support';

/** A raw POST with a chosen client certificate (or none): what the simulator does with any caller. */
function post(
  url: string,
  body: string,
  contentType: string,
  client?: { keyPem: string; certPem: string },
  ca?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: 'POST', ca, key: client?.keyPem, cert: client?.certPem, headers: { 'Content-Type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('Local authority simulator', function () {
  this.timeout(60_000);
  let sim: Awaited<ReturnType<typeof authority>>['sim'];
  let ep: Awaited<ReturnType<typeof authority>>['endpoints'];
  const cnpj = randomCnpj();
  let creds: ReturnType<typeof parsePfx>;
  let client: AuthorityClient;

  before(async () => {
    ({ sim, endpoints: ep } = await authority());
    creds = parsePfx(sim.issueClientCertificate(cnpj, 'DESTINATARIO', 'x').pfx, 'x');
    client = new AuthorityClient({
      national: { distUrl: ep.distUrl, eventUrl: ep.eventUrl, ca: [ep.caPem] },
      credentials: creds,
      tpAmb: '1',
      document: cnpj,
      uf: 'SP',
    });
  });

  const distBody = (query: Parameters<typeof buildDistDFeInt>[0]['query'], document = cnpj) =>
    buildRequestEnvelope(DIST_DFE, buildDistDFeInt({ tpAmb: '1', cnpj: document, query }));

  describe('client-certificate authentication', () => {
    it('no client certificate, or one of another authority → 403', async () => {
      expect(
        (await post(ep.distUrl, distBody({ kind: 'distNSU', ultNSU: '0' }), soapContentType(DIST_DFE), undefined, ep.caPem)).status,
      ).to.equal(403);
      const stranger = issueA1(createCertificateAuthority('Outra AC'), cnpj, 'X', 'x');
      expect(
        (await post(ep.distUrl, distBody({ kind: 'distNSU', ultNSU: '0' }), soapContentType(DIST_DFE), stranger, ep.caPem)).status,
      ).to.equal(403);
    });

    it('a certificate of another CNPJ root: 593 to queries', async () => {
      const res = await post(
        ep.distUrl,
        distBody({ kind: 'distNSU', ultNSU: '0' }, randomCnpj()),
        soapContentType(DIST_DFE),
        creds,
        ep.caPem,
      );
      expect(decodeDistReply(res.body).cStat).to.equal('593');
    });

    it('a body that is not a DF-e message → SOAP Fault (500)', async () => {
      const res = await post(ep.distUrl, '<x/>', soapContentType(DIST_DFE), creds, ep.caPem);
      expect(res.status).to.equal(500);
      expect(res.body).to.contain('Fault');
    });
  });

  describe('distribution rules', () => {
    it('at most 50 per call; 138 until maxNSU; a premature repeat → 656 and a block of one hour; then 137', async () => {
      sim.generate({ recipient: cnpj, count: 55 });
      const a = await client.distDFe({ kind: 'distNSU', ultNSU: '0' });
      expect([a.cStat, a.documents.length, a.ultNSU, a.maxNSU]).to.deep.equal(['138', 50, '000000000000050', '000000000000055']);
      const b = await client.distDFe({ kind: 'distNSU', ultNSU: a.ultNSU! });
      expect([b.cStat, b.documents.length, b.ultNSU]).to.deep.equal(['138', 5, '000000000000055']);
      const early = await client.distDFe({ kind: 'distNSU', ultNSU: b.ultNSU! });
      expect(early.cStat).to.equal('656');
      expect(early).to.include({ ultNSU: '000000000000055', maxNSU: '000000000000000' });
      expect(early.xMotivo).to.match(/Consumo Indevido .*aguardado 1 hora/);
      clock.advance(HOUR / 2);
      expect((await client.distDFe({ kind: 'distNSU', ultNSU: b.ultNSU! })).cStat).to.equal('656');
      clock.advance(HOUR);
      const later = await client.distDFe({ kind: 'distNSU', ultNSU: b.ultNSU! });
      expect([later.cStat, later.ultNSU, later.maxNSU]).to.deep.equal(['137', '000000000000055', '000000000000055']);
    });

    it('a query out of sequence → 656 naming the last position; an NSU beyond maxNSU → 589', async () => {
      clock.advance(HOUR + 1);
      const wrong = await client.distDFe({ kind: 'distNSU', ultNSU: '10' });
      expect(wrong).to.include({ cStat: '656', ultNSU: '000000000000055', maxNSU: '000000000000000' });
      expect(wrong.xMotivo).to.match(/ultNSU nas solicitacoes subsequentes/);
      const fresh = randomCnpj();
      const c2 = new AuthorityClient({
        national: { distUrl: ep.distUrl, eventUrl: ep.eventUrl, ca: [ep.caPem] },
        credentials: parsePfx(sim.issueClientCertificate(fresh, 'X', 'x').pfx, 'x'),
        tpAmb: '1',
        document: fresh,
        uf: 'SP',
      });
      expect((await c2.distDFe({ kind: 'distNSU', ultNSU: '7' })).cStat).to.equal('589');
    });

    it('the full XML is held back until ciência or confirmação (desconhecimento keeps it back)', async () => {
      const [a, b] = sim.generate({ recipient: cnpj, count: 2 }).map((g) => g.accessKey);
      const kindOf = async (key: string) => (await client.distDFe({ kind: 'consChNFe', accessKey: key })).documents.map((d) => d.kind);
      expect(await kindOf(a)).to.deep.equal(['resNFe']);
      expect((await client.manifest({ event: 'DESCONHECIMENTO', accessKey: a })).result.cStat).to.equal('135');
      expect(await kindOf(a)).to.deep.equal(['resNFe']);
      expect((await client.manifest({ event: 'CONFIRMACAO', accessKey: b })).result.cStat).to.equal('135');
      expect(await kindOf(b)).to.deep.equal(['procNFe']);
      // … and arrives as a new NSU of the stream.
      const status = sim.authority.status(cnpj);
      expect(status.invoices.find((i) => i.accessKey === b)).to.include({ released: true });
      expect(status.maxNSU).to.equal('000000000000058');
    });
  });

  describe('events', () => {
    let key: string;
    before(() => {
      [key] = sim.generate({ recipient: cnpj, count: 1 }).map((g) => g.accessKey);
    });
    const send = async (envEvento: string, who = creds) =>
      decodeEventReply(
        (await post(ep.eventUrl, buildRequestEnvelope(RECEPCAO_EVENTO, envEvento), soapContentType(RECEPCAO_EVENTO), who, ep.caPem)).body,
      );
    const signed = (over: Partial<Parameters<typeof buildSignedEnvEvento>[0]> = {}) =>
      buildSignedEnvEvento({ event: 'CIENCIA', accessKey: key, tpAmb: '1', recipientDocument: cnpj, ...over }, creds, '7').envEvento;

    it('135 once, 573 after', async () => {
      expect((await send(signed())).events[0]).to.include({ cStat: '135', recipientDocument: cnpj });
      expect((await send(signed())).events[0]).to.include({ cStat: '573' });
    });

    it('a changed signed byte → 297; an Id not matching its fields → 572; no xJust for 210240 → 595', async () => {
      expect((await send(signed({ event: 'CONFIRMACAO' }).replace('<tpAmb>1</tpAmb>', '<tpAmb>1</tpAmb> '))).events[0].cStat).to.equal(
        '297',
      );
      const badId = signed({ event: 'CONFIRMACAO' }).replace(/Id="ID210200(\d{44})01"/, 'Id="ID210200$102"');
      expect((await send(badId)).events[0].cStat).to.equal('572');
      expect((await send(signed({ event: 'NAO_REALIZADA' }))).events[0].cStat).to.equal('595');
    });

    it('an unknown key → 494; another recipient’s certificate → 631', async () => {
      expect((await send(signed({ accessKey: '3'.repeat(44) }))).events[0].cStat).to.equal('494');
      const other = randomCnpj();
      const otherCreds = parsePfx(sim.issueClientCertificate(other, 'Y', 'y').pfx, 'y');
      const env = buildSignedEnvEvento(
        { event: 'CONFIRMACAO', accessKey: key, tpAmb: '1', recipientDocument: other },
        otherCreds,
        '8',
      ).envEvento;
      expect((await send(env, otherCreds)).events[0].cStat).to.equal('631');
    });

    (hasFixtures ? it : it.skip)('596 for an NF-e authorized more than six months ago (a real one fed by XML)', async () => {
      const real = fixture('procNFe-v400-prod-sp-icms51-diferimento-9itens.xml');
      const fed = sim.authority.feed(real);
      const owner = parsePfx(sim.issueClientCertificate(fed.recipient, 'RAIZS', 'r').pfx, 'r');
      const env = buildSignedEnvEvento(
        { event: 'CIENCIA', accessKey: fed.accessKey, tpAmb: '1', recipientDocument: fed.recipient },
        owner,
        '9',
      ).envEvento;
      const r = (await send(env, owner)).events[0];
      expect(r.cStat).to.equal('596');
      expect(r.xMotivo).to.equal('Rejeicao: Evento apresentado apos o prazo permitido para o evento: [6 meses]');
    });
  });

  describe('admin API and the simulator:feed CLI', () => {
    const admin = (method: 'GET' | 'POST', p: string, body?: string, type = 'application/json', token = ep.adminToken) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = https.request(
          `${ep.url}${p}`,
          { method, ca: ep.caPem, headers: { Authorization: `Bearer ${token}`, 'Content-Type': type } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({ status: res.statusCode ?? 0, body: /^[[{]/.test(text) ? JSON.parse(text) : text });
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });

    it('refuses without the admin token', async () => {
      expect((await admin('GET', `/admin/status?cnpj=${cnpj}`, undefined, 'application/json', 'wrong')).status).to.equal(401);
    });

    it('generates, feeds XML, cancels and reports a recipient’s stream', async () => {
      const recipient = randomCnpj();
      const gen = await admin('POST', '/admin/generate', JSON.stringify({ recipient, count: 2 }));
      expect(gen.status).to.equal(201);
      expect(gen.body.map((g: { nsu: string }) => g.nsu)).to.deep.equal(['000000000000001', '000000000000002']);
      const [xml] = sim.generate({ recipient, count: 1 }).map((g) => g.xml);
      const dup = await admin('POST', '/admin/nfe', xml, 'application/xml');
      expect(dup.status).to.equal(422);
      expect(dup.body).to.match(/already fed/);
      const cancel = await admin('POST', '/admin/cancel', JSON.stringify({ accessKey: gen.body[0].accessKey }));
      expect(cancel.body).to.deep.equal({ nsu: '000000000000004' });
      const status = await admin('GET', `/admin/status?cnpj=${recipient}`);
      expect(status.body).to.include({ maxNSU: '000000000000004', documents: 4 });
      expect(status.body.invoices[0]).to.include({ status: 'CANCELLED' });
      expect((await admin('POST', '/admin/nfe', '<nfeProc', 'application/xml')).status).to.equal(422);
    });

    it('generates for an alphanumeric CNPJ recipient (separators and lower case accepted); an invalid one is 400', async () => {
      const recipient = cnpjWithCheckDigits(`Q${String(Date.now()).slice(-7)}ZZ01`);
      const written =
        `${recipient.slice(0, 2)}.${recipient.slice(2, 5)}.${recipient.slice(5, 8)}/${recipient.slice(8, 12)}-${recipient.slice(12)}`.toLowerCase();
      const gen = await admin('POST', '/admin/generate', JSON.stringify({ recipient: written, count: 2 }));
      expect(gen.status, JSON.stringify(gen.body)).to.equal(201);
      expect(gen.body.every((g: { accessKey: string }) => /^\d{44}$/.test(g.accessKey))).to.equal(true);
      expect((await admin('GET', `/admin/status?cnpj=${recipient}`)).body).to.include({ documents: 2 });
      expect(
        (
          await admin(
            'POST',
            '/admin/generate',
            JSON.stringify({ recipient: `${recipient.slice(0, 13)}${(Number(recipient[13]) + 1) % 10}`, count: 1 }),
          )
        ).status,
      ).to.equal(400);
    });

    it('npm run simulator:feed -- --file / --generate', async function () {
      this.timeout(60_000);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sefaz-cli-'));
      try {
        fs.writeFileSync(path.join(dir, 'ca.pem'), ep.caPem);
        const recipient = randomCnpj();
        const issuer = { cnpj: '60746948000112', name: 'Distribuidora de Bebidas Paulista S.A.', uf: 'SP' };
        const nfe = generateNfe(
          {
            issuer,
            recipient: { cnpj: recipient, name: 'LOJA', uf: 'SP' },
            items: SAMPLE_ITEMS.slice(0, 2),
            tpAmb: '1',
            number: 77,
            signer: issueCertificate(sim.ca, { commonName: issuer.name, cnpj: issuer.cnpj }),
          },
          77,
        );
        fs.writeFileSync(path.join(dir, 'nfe.xml'), nfe.xml);
        // Asynchronous: the simulator answering the CLI lives in this process.
        const cli = (...args: string[]) =>
          new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
            const child = spawn(
              process.execPath,
              [
                '-r',
                'ts-node/register',
                'src/dev/sefaz-simulator/feed-cli.ts',
                ...args,
                '--url',
                ep.url,
                '--token',
                ep.adminToken,
                '--ca',
                path.join(dir, 'ca.pem'),
              ],
              {
                cwd: path.resolve(__dirname, '../..'),
                env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
              },
            );
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (c) => (stdout += c));
            child.stderr.on('data', (c) => (stderr += c));
            child.on('close', (status) => resolve({ status, stdout, stderr }));
          });
        const fed = await cli('--file', path.join(dir, 'nfe.xml'));
        expect(fed.status, fed.stderr).to.equal(0);
        expect(JSON.parse(fed.stdout)).to.deep.equal({ accessKey: nfe.accessKey, recipient, nsu: '000000000000001' });
        const generated = await cli('--generate', '2', '--cnpj', recipient);
        expect(generated.status, generated.stderr).to.equal(0);
        expect(JSON.parse(generated.stdout)).to.have.length(2);
        expect(sim.authority.status(recipient).documents).to.equal(3);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('startLocalAuthority() (npm start on the embedded default)', () => {
    it('starts the simulator, gives the demo filiais a certificate and points them at it', async function () {
      this.timeout(60_000);
      const { summary } = await seedDemoTenant();
      // The demo's first look (issue 20): quick sale configured, word search on the seeded names.
      const demoHeaders = (filial: string) => ({
        Authorization: `Bearer ${signToken({ sub: 'demo', companyId: summary.companyId, filiais: ['*'], scope: '*' }, '10m')}`,
        'x-company-id': summary.companyId,
        'x-filial-id': filial,
      });
      const h = demoHeaders(summary.filialIds[0]);
      expect((await api().get(`/api/quick-sale/validate-configuration/${summary.filialIds[0]}`).set(h)).body).to.deep.include({
        valid: true,
      });
      const sale = await api()
        .post('/api/sales-order')
        .set(h)
        .send({ flowMode: 'QUICK_SALE', items: [{ productId: summary.productIds[0], quantity: 1 }] });
      expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
      expect(sale.body.status).to.equal('FULFILLED');
      const names = async (term: string) =>
        (await api().get('/api/catalog/customers').query({ search: term }).set(h)).body.data.map((c: { name: string }) => c.name);
      expect(await names('silva')).to.deep.equal(['Maria da Silva']);
      expect(await names('quente')).to.deep.equal(['Padaria Pão Quente Ltda']);
      const local = await startLocalAuthority(DEMO_COMPANY_CNPJ);
      if (config.db.engine === 'mysql') {
        // Not started on MySQL unless SEFAZ_SIMULATOR=true.
        expect(local).to.equal(null);
        return;
      }
      try {
        expect(local!.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
        const company = await dataSource.manager.findOneByOrFail(Company, { cnpj: DEMO_COMPANY_CNPJ });
        const [matriz] = await dataSource.manager.find(Filial, { where: { companyId: company.id }, order: { id: 'ASC' } });
        const endpoint = await dataSource.manager.findOneByOrFail(SefazEndpoint, { companyId: company.id, filialId: matriz.id });
        expect(endpoint.distUrl).to.equal(`${local!.url}/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx`);
        const token = signToken({ sub: 'demo', companyId: summary.companyId, filiais: ['*'], scope: '*' }, '10m');
        const headers = {
          Authorization: `Bearer ${token}`,
          'x-company-id': summary.companyId,
          'x-filial-id': encodeId('filial', matriz.id),
        };
        const res = await api().post(`${NFE}/consultar`).set(headers);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.received).to.equal(3);
        // Caught up: the local simulator's short quiet period (SEFAZ_SIMULATOR_WAIT_SECONDS, 60 s), not the authority's hour.
        const state = await dataSource.manager.findOneByOrFail(DfeState, { companyId: company.id, filialId: matriz.id });
        const wait = state.nextAllowedAt!.getTime() - Date.now();
        expect(wait).to.be.within(30_000, 60_000);
        const list = await api()
          .get(`${NFE}/inbound/${encodeId('filial', matriz.id)}`)
          .set(headers);
        expect(
          list.body.data.every((r: { environment: string; kind: string }) => r.environment === 'HOMOLOGATION' && r.kind === 'SUMMARY'),
        ).to.equal(true);
      } finally {
        await local?.stop();
      }
    });
  });
});
