import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { AppError } from '../../src/core/errors';
import { cnpjOfCertificatePem, parsePfx } from '../../src/modules/sefaz/certificate/pfx';
import { authorityAnswerError, distOutcome, eventOutcome } from '../../src/modules/authority/cstat';
import { decodeDistReply, decodeEventReply, ExchangeRecord, AuthorityClient } from '../../src/modules/authority/authority-client';
import { buildRetDistDFeInt, unzipDoc } from '../../src/modules/authority/xml/dist-dfe';
import { extractElementText } from '../../src/modules/authority/xml/reply';
import { buildSignedEnvEvento, ManifestationEvent } from '../../src/modules/authority/xml/events';
import { buildResponseEnvelope, DIST_DFE } from '../../src/modules/authority/xml/soap';
import { verifyEnvelopedSignatures } from '../../src/modules/authority/xml/xmldsig';
import { issueCertificate } from '../../src/dev/sefaz-simulator/pki';
import { verifyNfeSignature } from '../../src/modules/fiscal-xml/signature';
import { randomCnpj } from '../support/tenant';
import { authority, fixture, FIXTURES, hasFixtures, hasTool } from './support';

const WS = (name: string) => fixture(`ws/${name}`);
const withFixtures = hasFixtures ? describe : describe.skip;
const withXmllint = hasFixtures && hasTool('xmllint') ? describe : describe.skip;
const withXmlsec = hasTool('xmlsec1') ? describe : describe.skip;

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sefaz-test-'));
}

/** xmllint --schema over many documents at once; the failures' output when any is invalid. */
function xsdValidate(xsd: string, docs: string[]): { ok: boolean; output: string } {
  const dir = tmpDir();
  const files = docs.map((xml, i) => {
    const f = path.join(dir, `doc-${i}.xml`);
    fs.writeFileSync(f, xml);
    return f;
  });
  const res = spawnSync('xmllint', ['--noout', '--schema', path.join(FIXTURES, 'xsd', xsd), ...files], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  return { ok: res.status === 0, output: res.stderr };
}

describe('Tax-authority protocol: recorded traffic, schemas and signatures', function () {
  this.timeout(60_000);

  withFixtures('the client’s response decoder on every real reply in ws/', () => {
    it('138 with 50 documents, dispatched by their decoded root (resNFe, procNFe, resEvento, procEventoNFe)', () => {
      const r = decodeDistReply(WS('retDistDFeInt-138-distNSU-50docs-soap.xml'));
      expect(distOutcome(r.cStat)).to.equal('DOCUMENTS');
      expect(r).to.include({ cStat: '138', ultNSU: '000000000016264', maxNSU: '000000000020175' });
      expect(r.documents).to.have.length(50);
      const kinds = r.documents.reduce<Record<string, number>>((acc, d) => ({ ...acc, [d.kind]: (acc[d.kind] ?? 0) + 1 }), {});
      expect(kinds).to.deep.equal({ resNFe: 20, procNFe: 19, resEvento: 10, procEventoNFe: 1 });
      for (const d of r.documents) expect(d.schema.startsWith(d.kind)).to.equal(true, `${d.nsu} ${d.schema} → ${d.kind}`);
      expect(r.documents.map((d) => Number(d.nsu))).to.deep.equal(Array.from({ length: 50 }, (_v, i) => 16215 + i));
      // The decoded bytes are the document exactly as issued: its signature still verifies.
      const proc = r.documents.find((d) => d.nsu === '000000000016234')!;
      expect(proc.kind).to.equal('procNFe');
      expect((proc as { xml: string }).xml).to.equal(fixture('procNFe-v400-prod-sp-12itens-4duplicatas.xml'));
      const summary = r.documents.find((d) => d.nsu === '000000000016215')!;
      expect(summary).to.deep.include({
        kind: 'resNFe',
        accessKey: '35200807934034000100550010000112391688126813',
        total: '3471.64',
        situation: '1',
      });
    });

    it('138 of an issuer’s stream (SOAP 1.2, pretty-printed): events with their registration', () => {
      const r = decodeDistReply(WS('retDistDFeInt-138-emitente-eventos-2017-soap.xml'));
      expect(r.documents).to.have.length(50);
      const kinds = r.documents.reduce<Record<string, number>>((acc, d) => ({ ...acc, [d.kind]: (acc[d.kind] ?? 0) + 1 }), {});
      expect(kinds).to.deep.equal({ resNFe: 6, resEvento: 33, procEventoNFe: 11 });
      const proc = r.documents.find((d) => d.kind === 'procEventoNFe')!;
      expect(proc).to.deep.include({ eventType: '210210', cStat: '135' });
    });

    it('137 to consChNFe (no ultNSU/maxNSU, as the real authority answers) and to consNSU', () => {
      const a = decodeDistReply(WS('retDistDFeInt-137-consChNFe-soap.xml'));
      expect(distOutcome(a.cStat)).to.equal('NOTHING_NEW');
      expect(a).to.include({ ultNSU: null, maxNSU: null });
      expect(a.documents).to.have.length(0);
      const b = decodeDistReply(WS('retDistDFeInt-137-consNSU-ultNSU-maxNSU-soap.xml'));
      expect(b).to.include({ cStat: '137', ultNSU: '000000000000051', maxNSU: '000000000020175' });
    });

    it('573: the lot processed (128), the event a duplicate → treated as done', () => {
      const r = decodeEventReply(WS('retEnvEvento-210210-128-573-duplicidade-soap.xml'));
      expect(r.cStat).to.equal('128');
      expect(r.events).to.have.length(1);
      expect(r.events[0]).to.include({ cStat: '573', tpEvento: '210210', accessKey: '35200309091076000144550010001807401003642343' });
      expect(eventOutcome(r.events[0].cStat)).to.equal('DUPLICATE');
    });

    for (const tp of ['210200', '210220', '210240']) {
      it(`596 to ${tp}: a rejection (422) carrying cStat and xMotivo`, () => {
        const r = decodeEventReply(WS(`retEnvEvento-${tp}-128-596-prazo-soap.xml`));
        expect(r.events[0]).to.include({ cStat: '596', tpEvento: tp });
        expect(eventOutcome('596')).to.equal('REJECTED');
        const err = authorityAnswerError(r.events[0].cStat, r.events[0].xMotivo, 'x');
        expect(err).to.be.instanceOf(AppError);
        expect(err).to.include({ kind: 'business_rule', code: 'SEFAZ_REJECTED' });
        expect(err.extensions).to.deep.equal({
          cStat: '596',
          xMotivo: 'Rejeicao: Evento apresentado apos o prazo permitido para o evento: [6 meses]',
        });
      });
    }

    it('authority trouble is not a rejection: 108/109 → 503, 999 → 502', () => {
      expect(authorityAnswerError('108', 'Servico Paralisado Momentaneamente', 'x').kind).to.equal('upstream_unavailable');
      expect(authorityAnswerError('109', 'Servico Paralisado sem Previsao', 'x').kind).to.equal('upstream_unavailable');
      expect(authorityAnswerError('999', 'Erro nao catalogado', 'x').kind).to.equal('upstream_failure');
    });
  });

  withFixtures('signatures of the real requests in ws/ (taken out of their SOAP envelope)', () => {
    for (const tp of ['210200', '210210', '210220', '210240']) {
      it(`${tp} verifies with the project’s verifier; a changed byte or the envelope around it does not`, () => {
        const soap = WS(`envEvento-req-${tp}-assinado-soap.xml`);
        const envEvento = extractElementText(soap, 'envEvento')!;
        const [check] = verifyEnvelopedSignatures(envEvento, 'infEvento');
        expect(check).to.include({ valid: true, id: `ID${tp}3520030909107600014455001000180740100364234301` });
        expect(cnpjOfCertificatePem(check.certPem!)).to.equal('23765766000162');
        expect(verifyEnvelopedSignatures(envEvento.replace('<nSeqEvento>1<', '<nSeqEvento>2<'), 'infEvento')[0].valid).to.equal(false);
        // Inclusive C14N pulls the envelope's namespace declarations in: why events are signed and checked standalone.
        expect(verifyEnvelopedSignatures(soap, 'infEvento')[0].valid).to.equal(false);
      });
    }

    it('the signed events distributed as procEventoNFe verify too', () => {
      for (const f of ['dfe/procEventoNFe-210210-ciencia-cstat135.xml', 'dfe/procEventoNFe-210200-confirmacao-cstat135.xml']) {
        expect(verifyEnvelopedSignatures(fixture(f), 'infEvento').map((c) => c.valid)).to.deep.equal([true], f);
      }
    });
  });

  describe('events the client signs', () => {
    let signer: ReturnType<typeof parsePfx>;
    let caPem: string;
    const cnpj = randomCnpj();
    before(async () => {
      const { sim } = await authority();
      signer = parsePfx(sim.issueClientCertificate(cnpj, 'EMPRESA ASSINANTE', 'x').pfx, 'x');
      caPem = sim.ca.certPem;
    });
    const signed = (event: ManifestationEvent) =>
      buildSignedEnvEvento(
        {
          event,
          accessKey: '35200309091076000144550010001807401003642343',
          tpAmb: '1',
          recipientDocument: cnpj,
          justification: event === 'NAO_REALIZADA' ? 'Operacao desfeita pelo cliente' : undefined,
        },
        signer,
        '42',
      ).envEvento;

    it('verify with the project’s verifier, Id = ID + tpEvento + key + 2-digit sequence', () => {
      const xml = signed('CIENCIA');
      expect(xml).to.contain('<infEvento Id="ID2102103520030909107600014455001000180740100364234301">');
      expect(verifyEnvelopedSignatures(xml, 'infEvento')[0].valid).to.equal(true);
      expect(xml).to.match(/<dhEvento>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00<\/dhEvento>/);
      expect(xml).not.to.match(/>\s+</);
    });

    withXmlsec('xmlsec1 (independent implementation)', () => {
      it('verifies a client-signed event against the CA, and rejects a changed one', () => {
        const dir = tmpDir();
        try {
          fs.writeFileSync(path.join(dir, 'ca.pem'), caPem);
          const good = path.join(dir, 'good.xml');
          const bad = path.join(dir, 'bad.xml');
          const xml = signed('NAO_REALIZADA');
          fs.writeFileSync(good, xml);
          fs.writeFileSync(bad, xml.replace('Operacao desfeita', 'Operacao refeita'));
          const run = (file: string) =>
            spawnSync('xmlsec1', ['--verify', '--trusted-pem', path.join(dir, 'ca.pem'), '--id-attr:Id', 'infEvento', file], {
              encoding: 'utf8',
            });
          const ok = run(good);
          expect(ok.status, ok.stderr).to.equal(0);
          expect(ok.stderr).to.match(/^OK/m);
          expect(run(bad).status).to.not.equal(0);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });

      it('verifies an NF-e the simulator issues (and so does the NF-e module)', async () => {
        const { sim } = await authority();
        const [g] = sim.generate({ recipient: randomCnpj(), count: 1 });
        expect(verifyNfeSignature(g.xml, `NFe${g.accessKey}`).status).to.equal('VALID');
        const dir = tmpDir();
        try {
          fs.writeFileSync(path.join(dir, 'ca.pem'), sim.ca.certPem);
          fs.writeFileSync(path.join(dir, 'nfe.xml'), g.xml);
          const res = spawnSync(
            'xmlsec1',
            ['--verify', '--trusted-pem', path.join(dir, 'ca.pem'), '--id-attr:Id', 'infNFe', path.join(dir, 'nfe.xml')],
            { encoding: 'utf8' },
          );
          expect(res.status, res.stderr).to.equal(0);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  });

  withXmllint('round trip through the official XSDs (xmllint --schema)', () => {
    const requests: Record<string, string[]> = { distDFeInt: [], envEvento: [] };
    const replies: Record<string, string[]> = { retDistDFeInt: [], retEnvEvento: [] };
    const documents: Record<string, string[]> = { resNFe: [], procNFe: [], resEvento: [], procEventoNFe: [] };

    before(async () => {
      const { sim, endpoints } = await authority();
      const cnpj = randomCnpj();
      const keys = sim.generate({ recipient: cnpj, count: 4 }).map((g) => g.accessKey);
      // The requests as they reach the authority (the DF-e log keeps them with the certificate left out).
      sim.onRequest = (_path, body) => {
        const name = body.includes('<distDFeInt') ? 'distDFeInt' : 'envEvento';
        requests[name].push(extractElementText(body, name)!);
      };
      const record = async (r: ExchangeRecord) => {
        const reply = r.service === 'DIST_DFE' ? 'retDistDFeInt' : 'retEnvEvento';
        replies[reply].push(extractElementText(r.response!, reply)!);
      };
      const a1 = parsePfx(sim.issueClientCertificate(cnpj, 'EMPRESA XSD', 'x').pfx, 'x');
      const client = new AuthorityClient({
        national: { distUrl: endpoints.distUrl, eventUrl: endpoints.eventUrl, ca: [endpoints.caPem] },
        credentials: a1,
        tpAmb: '1',
        document: cnpj,
        uf: 'SP',
        onExchange: record,
      });
      await client.manifest({ event: 'CIENCIA', accessKey: keys[0] });
      await client.manifest({ event: 'CIENCIA', accessKey: keys[0] }); // 573
      await client.manifest({ event: 'CONFIRMACAO', accessKey: keys[1] });
      await client.manifest({ event: 'DESCONHECIMENTO', accessKey: keys[2] });
      await client.manifest({ event: 'NAO_REALIZADA', accessKey: keys[3], justification: 'Mercadoria devolvida na portaria' });
      // Cancellations reach a recipient that manifested as procEventoNFe, one that did not as resEvento.
      sim.authority.cancelByIssuer(keys[1]);
      sim.authority.cancelByIssuer(sim.generate({ recipient: cnpj, count: 1 })[0].accessKey);
      const page = await client.distDFe({ kind: 'distNSU', ultNSU: '0' });
      await client.distDFe({ kind: 'distNSU', ultNSU: page.ultNSU! }); // 656 (quiet hour)
      await client.distDFe({ kind: 'consNSU', nsu: '1' });
      await client.distDFe({ kind: 'consChNFe', accessKey: keys[0] });
      sim.onRequest = null;
      for (const reply of replies.retDistDFeInt) {
        for (const m of reply.matchAll(/<docZip[^>]*>([^<]+)<\/docZip>/g)) {
          const xml = unzipDoc(m[1]);
          const root = /^<(\w+)/.exec(xml)![1];
          documents[root === 'nfeProc' ? 'procNFe' : root].push(xml);
        }
      }
    });

    it('the client’s requests: distDFeInt (distNSU, consNSU, consChNFe) and envEvento (the four events)', () => {
      expect(requests.distDFeInt).to.have.length(4);
      expect(requests.envEvento).to.have.length(5);
      const dist = xsdValidate('distDFeInt_v1.01.xsd', requests.distDFeInt);
      expect(dist.ok, dist.output).to.equal(true);
      const events = xsdValidate('envConfRecebto_v1.00.xsd', requests.envEvento);
      expect(events.ok, events.output).to.equal(true);
    });

    it('the simulator’s replies: retDistDFeInt (138, 656) and retEnvEvento (135, 573)', () => {
      expect(replies.retDistDFeInt.map((r) => /<cStat>(\d+)/.exec(r)![1])).to.deep.equal(['138', '656', '138', '138']);
      expect(replies.retEnvEvento.map((r) => [...r.matchAll(/<cStat>(\d+)/g)].map((m) => m[1]).join('/'))).to.deep.equal([
        '128/135',
        '128/573',
        '128/135',
        '128/135',
        '128/135',
      ]);
      const dist = xsdValidate('retDistDFeInt_v1.01.xsd', [
        ...replies.retDistDFeInt,
        buildRetDistDFeInt({
          tpAmb: '1',
          verAplic: 'X',
          cStat: '137',
          xMotivo: 'Nenhum documento localizado',
          dhResp: '2025-01-02T10:00:00-03:00',
          ultNSU: '000000000000009',
          maxNSU: '000000000000009',
        }),
      ]);
      expect(dist.ok, dist.output).to.equal(true);
      const events = xsdValidate('retEnvConfRecebto_v1.00.xsd', replies.retEnvEvento);
      expect(events.ok, events.output).to.equal(true);
    });

    it('every distributed document against the schema it declares', () => {
      expect(documents.resNFe.length).to.be.greaterThan(0);
      expect(documents.procNFe.length).to.be.greaterThan(0);
      expect(documents.resEvento.length).to.be.greaterThan(0);
      expect(documents.procEventoNFe.length).to.be.greaterThan(0);
      for (const [kind, xsd] of [
        ['resNFe', 'resNFe_v1.01.xsd'],
        ['procNFe', 'procNFe_v4.00.xsd'],
        ['resEvento', 'resEvento_v1.01.xsd'],
        ['procEventoNFe', 'procEventoNFe_v1.00.xsd'],
      ]) {
        const res = xsdValidate(xsd, documents[kind]);
        expect(res.ok, `${kind}: ${res.output}`).to.equal(true);
      }
    });
  });

  describe('transport', () => {
    let server: https.Server;
    let mode: 'reset-once' | 'silent' = 'reset-once';
    let hits = 0;
    let client: (timeoutMs: number, records: ExchangeRecord[]) => AuthorityClient;

    before(async () => {
      const { sim } = await authority();
      const pair = issueCertificate(sim.ca, { commonName: '127.0.0.1', hosts: ['127.0.0.1'] });
      const reply = buildResponseEnvelope(
        DIST_DFE,
        buildRetDistDFeInt({
          tpAmb: '1',
          verAplic: 'T',
          cStat: '137',
          xMotivo: 'Nenhum documento localizado',
          dhResp: '2025-01-02T10:00:00-03:00',
          ultNSU: '000000000000007',
          maxNSU: '000000000000007',
        }),
      );
      server = https.createServer({ key: pair.keyPem, cert: pair.certPem }, (req, res) => {
        hits++;
        if (mode === 'silent') return; // never answers
        if (hits === 1) return req.socket.destroy();
        res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
        res.end(reply);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/dist`;
      const cnpj = randomCnpj();
      const a1 = parsePfx(sim.issueClientCertificate(cnpj, 'T', 'x').pfx, 'x');
      client = (timeoutMs, records) =>
        new AuthorityClient({
          national: { distUrl: url, eventUrl: url, ca: [sim.ca.certPem] },
          credentials: a1,
          tpAmb: '1',
          document: cnpj,
          uf: 'SP',
          onExchange: async (r) => void records.push(r),
          transport: { timeoutMs, retries: 2, retryBaseMs: 5 },
        });
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });

    it('a dropped connection is retried with back-off; each attempt is logged', async () => {
      const records: ExchangeRecord[] = [];
      const r = await client(2000, records).distDFe({ kind: 'distNSU', ultNSU: '7' });
      expect(r.cStat).to.equal('137');
      expect(records.map((x) => [x.attempt, x.httpStatus, x.cStat])).to.deep.equal([
        [1, null, null],
        [2, 200, '137'],
      ]);
      expect(records[0].error).to.match(/ECONNRESET|hang up/);
    });

    it('no answer in time → 504 SEFAZ_TIMEOUT after the retries', async () => {
      mode = 'silent';
      const records: ExchangeRecord[] = [];
      const started = Date.now();
      let error: AppError | null = null;
      try {
        await client(200, records).distDFe({ kind: 'distNSU', ultNSU: '7' });
      } catch (err) {
        error = err as AppError;
      }
      expect(error).to.include({ kind: 'upstream_timeout', code: 'SEFAZ_TIMEOUT' });
      expect(records.map((x) => x.attempt)).to.deep.equal([1, 2, 3]);
      expect(Date.now() - started).to.be.lessThan(5000);
    });
  });
});
