/*
 * Issue 30: CPU per issued NF-e on the application side — build the XML from a computed document,
 * sign it (RSA-SHA1 enveloped, C14N) and store it (gzip + the issue path's INSERT of the outbound_nfe row, in a
 * transaction of its own as the issue path writes it: START TRANSACTION … COMMIT) — against a
 * floor measured in the same run: the same RSA-SHA1 signature with node's crypto alone (SHA-1 of the
 * document's canonical infNFe + one RSA-2048 signature of SignedInfo). Target ≤ 2.5× the floor (issue 51;
 * 200 items ≤ 3×). Also the parts any design must spend beside the floor, in the same rounds: gzip of
 * the signed XML and one round trip that stores the same row (START; the INSERT with the same values;
 * COMMIT in one query, by mysql2 alone): the issue's CPU over their sum is what the service adds.
 * MariaDB's own CPU is another process and is not counted.
 *   npm run bench -- invoice-issue            (DB_URL: the bench database, migrated here)
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { dataSource } from '../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../src/core/db/transaction';
import { prepareDatabase, rawMysqlPool } from './support';
import { gz, insertOutboundNfe } from '../src/modules/outbound-nfe/invoice-store';
import { buildNfeXml, NfeHeader } from '../src/modules/outbound-nfe/xml/nfe-xml';
import { signerOf, signNfe } from '../src/modules/authority/xml/xmldsig';
import { sampleDocument, sampleItem } from '../tests/invoices/conformance-support';
import { testCertificate } from '../tests/support/test-certificate';

const N = Number(process.env.BENCH_DOCS ?? 1500);
/* Steady state, as in a running service: process.cpuUsage counts V8's compiler and GC threads too, and
   the driver's and TypeORM's paths are still being compiled during the first few hundred documents. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const cert = testCertificate('11222333000181', 'MERCADO BENCH LTDA');
const signer = signerOf(cert.privateKeyPem, cert.certificatePem);
const companyId = 900_000_000 + crypto.randomInt(1, 90_000_000);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const header = (n: number): NfeHeader => ({
  number: n,
  series: 1,
  issuedAt: new Date(),
  emissionType: 1,
  contingency: null,
  randomCode: String(10_000_000 + n),
  tpAmb: '2',
  transport: { mode: 9, volumes: null },
  installments: [],
  paymentType: '01',
  additionalInfo: 'Valor aproximado dos tributos: R$ 6,30 (30,00%) conforme Lei 12.741/2012',
});

let buildSignCpu = 0;
async function issueOne(doc: ReturnType<typeof sampleDocument>, n: number): Promise<void> {
  const c0 = cpuMs();
  const built = buildNfeXml(doc, header(n));
  const signed = signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signer);
  const zipped = gz(signed.xml);
  buildSignCpu += cpuMs() - c0;
  const s0 = cpuMs();
  // The issue path's own store (invoice-store.ts: one parameterized INSERT) in its transaction.
  await inTransaction(NO_UNIT, (em) =>
    insertOutboundNfe(em, {
      companyId,
      filialId: 1,
      seriesId: 1,
      model: 55,
      series: 1,
      number: n,
      accessKey: built.accessKey,
      source: 'FULFILLMENT',
      sourceId: null,
      fulfillmentId: n,
      salesOrderId: n,
      customerId: 1,
      claim: `F${n}`,
      status: 'SIGNED',
      emissionType: 1,
      contingencyReason: null,
      issuedAtText: built.issuedAtText,
      issuedAt: new Date(),
      randomCode: String(10_000_000 + n),
      total: doc.totals.vNF,
      summary: {
        recipientName: null,
        recipientDocument: null,
        recipientEmail: null,
        operationNature: doc.operationNature,
        itemCount: doc.items.length,
        totals: { vNF: doc.totals.vNF.toFixed(2) },
        installments: [],
        additionalInfo: '',
      },
      signedXmlGz: zipped,
      actor: 'bench',
      requestKey: null,
      leaseOwner: null,
      leaseUntil: null,
    }),
  );
  storeCpu += cpuMs() - s0;
}
let storeCpu = 0;

function floorOne(doc: ReturnType<typeof sampleDocument>, n: number): void {
  const built = buildNfeXml(doc, header(n)); // outside the timed part below
  const t0 = cpuMs();
  const digest = crypto.createHash('sha1').update(built.canonicalInfNFe, 'utf8').digest('base64');
  crypto.sign('sha1', Buffer.from(`<SignedInfo>${digest}</SignedInfo>`, 'utf8'), signer.key);
  floorCpu += cpuMs() - t0;
}
let floorCpu = 0;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/*
 * The store's floor: a row the issue path stored, sent again by mysql2 alone with new keys — the same
 * columns and values (the gzipped XML included), START and COMMIT in the same query, one round trip.
 */
function rawStore() {
  const pool = rawMysqlPool();
  const q = (sql: string, values: unknown[]) =>
    new Promise<unknown>((resolve, reject) => pool.query(sql, values, (err, rows) => (err ? reject(err) : resolve(rows))));
  let row: Record<string, unknown> | null = null;
  let nextId = 0;
  return {
    async load(): Promise<void> {
      const rows = (await q('SELECT * FROM outbound_nfe WHERE company_id = ? ORDER BY id DESC LIMIT 1', [companyId])) as Record<
        string,
        unknown
      >[];
      // JSON columns go back as their text; Buffers and Dates as mysql2 writes them.
      row = Object.fromEntries(
        Object.entries(rows[0]).map(([k, v]) => [
          k,
          v && typeof v === 'object' && !Buffer.isBuffer(v) && !(v instanceof Date) ? JSON.stringify(v) : v,
        ]),
      );
      nextId = Number(row.id) + 10_000_000;
    },
    once(n: number): Promise<unknown> {
      const id = nextId++;
      const values = {
        ...row,
        id,
        number: n,
        access_key: String(n).padStart(44, '9'),
        claim: `R${n}`,
        fulfillment_id: n,
        sales_order_id: n,
      };
      return q('START TRANSACTION; INSERT INTO outbound_nfe SET ?; COMMIT', [values]);
    },
    end: () => pool.end(),
  };
}

async function main() {
  await prepareDatabase();
  const small = sampleDocument();
  const big = sampleDocument({
    items: Array.from({ length: 200 }, (_v, i) => sampleItem(i + 1, { description: `Produto ${i + 1} embalagem economica` })),
  });
  for (let i = 0; i < WARMUP; i++) await issueOne(small, 1_000_000 + i); // warm-up
  for (let i = 0; i < WARMUP; i++) floorOne(small, i);
  floorCpu = 0;

  const raw = rawStore();
  await raw.load();
  const builtSmall = buildNfeXml(small, header(1));
  const signedSmall = signNfe(builtSmall.xml, builtSmall.accessKey, builtSmall.canonicalInfNFe, signer).xml;
  for (let i = 0; i < WARMUP; i++) await raw.once(4_000_000 + i);

  // Interleaved rounds so drift on a shared box hits both sides alike.
  let issueCpu = 0;
  let gzipCpu = 0;
  let tripCpu = 0;
  buildSignCpu = 0;
  storeCpu = 0;
  const rounds = 5;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < N / rounds; i++) floorOne(small, r * 1000 + i);
    const t0 = cpuMs();
    for (let i = 0; i < N / rounds; i++) await issueOne(small, 2_000_000 + r * 1000 + i);
    issueCpu += cpuMs() - t0;
    const g0 = cpuMs();
    for (let i = 0; i < N / rounds; i++) zlib.gzipSync(Buffer.from(signedSmall, 'utf8'), { level: 1, windowBits: 13 });
    gzipCpu += cpuMs() - g0;
    const r0 = cpuMs();
    for (let i = 0; i < N / rounds; i++) await raw.once(5_000_000 + r * 1000 + i);
    tripCpu += cpuMs() - r0;
  }
  const perIssue = issueCpu / N;
  const perFloor = floorCpu / N;
  const perBuildSign = buildSignCpu / N;
  const perParts = perFloor + gzipCpu / N + tripCpu / N;

  const bigCpu: number[] = [];
  const bigWall: number[] = [];
  const bigBytes = buildNfeXml(big, header(1)).xml.length;
  for (let i = 0; i < 20; i++) {
    const c0 = cpuMs();
    const w0 = process.hrtime.bigint();
    await issueOne(big, 3_000_000 + i);
    bigWall.push(Number(process.hrtime.bigint() - w0) / 1e6);
    bigCpu.push(cpuMs() - c0);
  }
  floorCpu = 0;
  for (let i = 0; i < 20; i++) floorOne(big, i);
  const bigFloor = floorCpu / 20;

  console.log(`documents: ${N} of ${small.items.length} items; node ${process.version}; ${dataSource.options.type}`);
  console.log(`CPU per issued document (build + sign + store): ${perIssue.toFixed(3)} ms`);
  console.log(`floor (SHA-1 of infNFe + RSA-SHA1 with node's crypto):  ${perFloor.toFixed(3)} ms`);
  console.log(`ratio: ${(perIssue / perFloor).toFixed(2)}× (target ≤ 2.5×)`);
  console.log(
    `parts any design spends: floor + gzip ${(gzipCpu / N).toFixed(3)} ms + one round trip storing the same row (mysql2 alone) ${(tripCpu / N).toFixed(3)} ms = ${perParts.toFixed(3)} ms = ${(perParts / perFloor).toFixed(2)}× the floor; the issue ÷ its parts ${(perIssue / perParts).toFixed(2)}×`,
  );
  console.log(
    `  of which build + sign + gzip: ${perBuildSign.toFixed(3)} ms (${(perBuildSign / perFloor).toFixed(2)}×), the INSERT in its transaction (insertOutboundNfe, START … COMMIT, awaits included): ${(storeCpu / N).toFixed(3)} ms`,
  );
  console.log(
    `200-item document (${(bigBytes / 1024).toFixed(0)} KiB): CPU median ${median(bigCpu).toFixed(2)} ms, wall median ${median(bigWall).toFixed(2)} ms; floor ${bigFloor.toFixed(2)} ms; ratio ${(median(bigCpu) / bigFloor).toFixed(2)}×`,
  );
  await dataSource.query('DELETE FROM outbound_nfe WHERE company_id = ?', [companyId]);
  raw.end();
  await dataSource.destroy();
  // The transactions' own pool (core/db) keeps the event loop alive after the data source closes.
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
