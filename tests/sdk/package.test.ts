import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { addStock, makeCustomer, makeProduct } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');
const sdkDir = path.join(root, 'sdk');
const sdkPackage = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, Record<string, string>>;
};
const readme = readFileSync(path.join(sdkDir, 'README.md'), 'utf8');

/** The README's first TypeScript example, as an ES module a plain `node` runs (types stripped, top-level await kept). */
function readmeExample(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('sdk/README.md has no ```ts example');
  return ts.transpileModule(block[1], { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}

/*
 * Issue 20: the SDK is an installable package. It is built and packed (`npm pack`), the tarball is
 * installed into an empty folder (offline: the package has no runtime dependency), and the README's
 * first example runs there, against this process's server, importing the package by the name it
 * documents.
 */
describe('SDK package: npm pack, install into an empty folder, the README example', function () {
  this.timeout(300_000);
  let t: TestTenant;
  let server: Server;
  let baseUrl: string;
  let work: string;
  let tarball: string;

  before(async function () {
    work = mkdtempSync(path.join(tmpdir(), 'sdk-package-'));
    // Built with the root's TypeScript (the SDK's own devDependencies may not be installed yet), packed without scripts.
    execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', path.join(sdkDir, 'tsconfig.json')], { stdio: 'pipe' });
    try {
      const out = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
        cwd: sdkDir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      tarball = path.join(work, out.trim().split('\n').pop()!);
    } catch (err) {
      this.skip(); // npm is not available here: nothing to pack with
      throw err;
    }
    t = await createTestTenant();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the README imports the package by its name; the tarball holds the build with exports and type declarations', () => {
    expect(readme).to.include(`from '${sdkPackage.name}'`);
    expect(path.basename(tarball)).to.equal(`${sdkPackage.name.replace(/^@/, '').replace('/', '-')}-${sdkPackage.version}.tgz`);
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).to.include.members([
      'package/package.json',
      'package/README.md',
      'package/dist/index.js',
      'package/dist/index.d.ts',
      'package/dist/openapi.d.ts',
    ]);
    expect(listing.some((f) => f.startsWith('package/src/'))).to.equal(false);
    expect(sdkPackage.exports['.']).to.include({ types: './dist/index.d.ts', require: './dist/index.js' });
  });

  it('installs into an empty folder and runs the README example against the server: the order is created and fulfilled', async function () {
    const app = path.join(work, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'sdk-readme-example', private: true, type: 'module' }));
    try {
      await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
    } catch (err) {
      console.log(`      skipped: npm install of the tarball failed offline (${(err as Error).message.split('\n')[0]})`);
      this.skip();
    }
    expect(existsSync(path.join(app, 'node_modules', ...sdkPackage.name.split('/'), 'dist', 'index.d.ts'))).to.equal(true);

    const product = await makeProduct(t, { name: 'Café torrado 500 g' });
    await addStock(t, 0, product.id, 10, '18.5');
    const customer = await makeCustomer(t, { name: 'Maria da Silva' });
    const given = {
      token: t.token,
      companyId: t.companyHash,
      filialId: t.filialHashes[0],
      customerId: customer.hash,
      productId: product.hash,
    };
    const prelude = Object.entries(given)
      .map(([k, v]) => `const ${k} = ${JSON.stringify(v)};`)
      .join('\n');
    const example = readmeExample().replace('http://127.0.0.1:3000', baseUrl);
    writeFileSync(
      path.join(app, 'example.mjs'),
      `${prelude}\n${example}\nconsole.log(JSON.stringify({ orderId: order.id, found: page.data.length }));\n`,
    );

    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: app, timeout: 60_000 });
    const lines = stdout.trim().split('\n');
    // The README's catch prints the problem of the unknown order: status and code.
    expect(lines[0]).to.match(/^404 SALES_ORDER_NOT_FOUND /);
    const { orderId } = JSON.parse(lines[lines.length - 1]) as { orderId: string };

    // What the example did, read back through the SDK: the order exists for the customer, one unit fulfilled.
    const client = createClient({ baseUrl, token: t.token, companyId: t.companyHash, filialId: t.filialHashes[0] });
    const order = await client.sales.get(orderId);
    expect(order).to.deep.include({ customerId: customer.hash, status: 'PARTIALLY_FULFILLED' });
    expect(order.items.map((i) => [i.productId, i.quantity, i.fulfilledQuantity])).to.deep.equal([[product.hash, 2, 1]]);
  });
});
