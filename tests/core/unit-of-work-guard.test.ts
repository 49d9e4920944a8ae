import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

/*
 * The unit of work is passed explicitly (docs/decisions/unit-of-work.md): a route's unit travels in
 * ctx.uow, repositories take the unit's manager, reads go through readerOf(ctx). This guard fails when
 * code falls back to an ambient way in: the data source's global manager (which is the pool, never the
 * transaction), an async-context store deciding which transaction a statement runs in, or a redefined
 * `dataSource.manager`. dependency-cruiser also forbids src/modules from importing the data source
 * (.dependency-cruiser.cjs, modules-reach-no-data-source); this test names the offending lines.
 */

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return e.name.endsWith('.ts') ? [file] : [];
  });
}

/** Lines of the files under `dirs` matching `pattern`, as "path:line: text". */
function offending(dirs: string[], pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(root, dir))) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (pattern.test(line)) hits.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  return hits;
}

const MODULES = ['src/modules', 'src/demo'];

describe('unit of work guard: no ambient way to the database in modules', () => {
  it('reads the modules', () => {
    expect(sourceFiles(path.join(root, 'src/modules')).length).to.be.greaterThan(200);
  });

  it('no module uses the data source (dataSource.manager is the pool, not the route’s unit): readerOf(ctx) / em instead', () => {
    const hits = offending(MODULES, /\bdataSource\b|core\/db\/data-source'/);
    expect(hits, hits.join('\n')).to.deep.equal([]);
  });

  it('no module keeps an async-context store (a transaction chosen by async context): pass ctx / em', () => {
    const hits = offending(MODULES, /AsyncLocalStorage|async_hooks|\breader\(\)|activeManager\(/);
    expect(hits, hits.join('\n')).to.deep.equal([]);
  });

  it('nothing redefines the data source’s manager', () => {
    const hits = offending(['src'], /defineProperty\(\s*dataSource\b/);
    expect(hits, hits.join('\n')).to.deep.equal([]);
  });
});

/*
 * Issue 43 (4): the two rules the async guard holds by construction (core/db/transaction.ts): no call
 * to the tax authority while a transaction is open in the async chain (the transport refuses it, a
 * plain Error → 500), and no second transaction opened beside an open one (unitOfWork throws, where
 * SQLite would wait for the first forever and MySQL wait on its row locks or commit apart from it).
 */
describe('unit of work guard: nothing beside an open transaction (issue 43)', () => {
  const settleWithin = <T>(p: Promise<T>, ms: number) =>
    Promise.race([
      p.then(
        (v) => ({ done: 'resolved' as const, v }),
        (err: unknown) => ({ done: 'rejected' as const, err }),
      ),
      new Promise<{ done: 'waiting' }>((r) => setTimeout(() => r({ done: 'waiting' }), ms)),
    ]);

  it('a call to the authority inside a unit of work is refused before anything is sent; outside it goes out', async () => {
    const { unitOfWork } = await import('../../src/core/db/transaction');
    const { postWithRetries } = await import('../../src/modules/authority');
    const target = { url: 'https://127.0.0.1:9/ws', keyPem: '', certPem: '', chainPems: [] };
    let refused: unknown;
    await unitOfWork(async () => {
      try {
        await postWithRetries(target, {}, '<x/>', { retries: 0, timeoutMs: 200 });
      } catch (err) {
        refused = err;
      }
    });
    expect(refused).to.be.instanceOf(Error);
    expect((refused as Error).message).to.match(/tax authority while a database transaction is open/);
    expect((refused as { failure?: string }).failure, 'not a transport failure: nothing was sent').to.equal(undefined);
    // Outside: the call is attempted (and fails as a transport error: nothing listens there).
    const outside = await postWithRetries(target, {}, '<x/>', { retries: 0, timeoutMs: 200 }).catch((err: unknown) => err);
    expect((outside as { failure?: string }).failure).to.be.oneOf(['network', 'tls', 'timeout']);
  });

  it('the AuthorityClient refuses every service inside a transaction (a programming error, nothing signed or sent); outside it goes out', async () => {
    const { inTransaction, NO_UNIT } = await import('../../src/core/db/transaction');
    const { AuthorityClient, NoAnswerError } = await import('../../src/modules/authority');
    const url = 'https://127.0.0.1:9/ws';
    const client = new AuthorityClient({
      credentials: { keyPem: '', certPem: '', chainPems: [], fingerprint: 'x' } as never,
      tpAmb: '2',
      issuer: { url: () => url, label: 'nowhere' },
      national: { distUrl: url, eventUrl: url },
      document: '12345678000190',
      timeoutMs: 200,
      transport: { retries: 0, timeoutMs: 200 },
    });
    const calls: [string, () => Promise<unknown>][] = [
      ['authorize', () => client.authorize('<NFe/>', '1')],
      ['situation', () => client.situation('3'.repeat(44))],
      ['status', () => client.status('35')],
      ['voidNumbers', () => client.voidNumbers('<inutNFe/>')],
      ['issuerEvent', () => client.issuerEvent('<envEvento/>', '110111')],
      ['distDFe', () => client.distDFe({ kind: 'distNSU', ultNSU: '0' })],
      ['manifest', () => client.manifest({ event: 'CIENCIA', accessKey: '3'.repeat(44) })],
    ];
    for (const [name, call] of calls) {
      const refused = await inTransaction(NO_UNIT, () =>
        call().then(
          () => null,
          (err: unknown) => err,
        ),
      );
      expect(refused, name).to.be.instanceOf(Error);
      expect((refused as Error).message, name).to.match(/tax authority while a database transaction is open/);
      expect(refused, name).to.not.be.instanceOf(NoAnswerError);
    }
    // Outside: the call goes out and, nothing listening there, gets no answer (the outcome unknown).
    expect(await client.status('35').catch((err: unknown) => err)).to.be.instanceOf(NoAnswerError);
  });

  it('a second unit of work (inTransaction(NO_UNIT)) opened inside an open one throws at once, and the open one stays usable', async () => {
    const { inTransaction, NO_UNIT, unitOfWork } = await import('../../src/core/db/transaction');
    const outcome = await unitOfWork(async (uow) => {
      // Not awaited whole: on SQLite a second transaction would wait for this one forever.
      const inner = await settleWithin(
        inTransaction(NO_UNIT, (em) => em.query('SELECT 1 AS one')),
        300,
      );
      await uow.em.query('SELECT 1 AS one');
      return inner;
    });
    expect(outcome.done, 'the nested transaction must be refused, not run beside the open one').to.equal('rejected');
    expect((outcome as { err: Error }).err.message).to.match(/beside the open unit/);
  });

  it('a request unit: a service opening its own transaction instead of joining ctx.uow throws', async () => {
    const { inTransaction, unitOfWork } = await import('../../src/core/db/transaction');
    const ctx: { companyId: number; actor: string; uow?: undefined } = { companyId: 1, actor: 't' };
    const outcome = await unitOfWork(async (uow) => {
      const joined = await inTransaction({ ...ctx, uow }, async () => 'joined');
      const beside = await settleWithin(
        inTransaction({ ...ctx }, async () => 'beside'),
        300,
      );
      return { joined, beside };
    });
    expect(outcome.joined).to.equal('joined');
    expect(outcome.beside.done).to.equal('rejected');
  });

  it('work started inside a unit and still running after its commit is outside it (timers, fire-and-forget)', async () => {
    const { inTransaction, insideOpenTransaction, NO_UNIT, unitOfWork } = await import('../../src/core/db/transaction');
    let later: Promise<string> | undefined;
    let inside: boolean | undefined;
    await unitOfWork(async () => {
      inside = insideOpenTransaction();
      later = new Promise((r) => setTimeout(r, 20)).then(() =>
        inTransaction(NO_UNIT, async () => (insideOpenTransaction() ? 'in its own unit' : 'outside')),
      );
    });
    expect(inside).to.equal(true);
    expect(await later).to.equal('in its own unit');
    expect(insideOpenTransaction()).to.equal(false);
  });
});
