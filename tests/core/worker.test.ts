import { expect } from 'chai';
import http from 'node:http';
import { registry } from '../../src/core/metrics';
import { LeaseStrategy, Worker } from '../../src/core/worker';
import { batchRunner } from '../../src/modules/inbound-nfe';
import { backgroundWorkers, shutdown } from '../../src/workers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('core/worker: the background worker primitive', () => {
  it('ticks on its interval, never two runs at once; stop awaits the running tick', async () => {
    let active = 0;
    let maxActive = 0;
    let finished = 0;
    const w = new Worker({
      name: 'test-overlap',
      intervalMs: 10,
      run: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(40);
        active--;
        finished++;
      },
    });
    w.start();
    await sleep(120);
    expect(maxActive).to.equal(1);
    expect(w.stats().runs).to.be.greaterThan(0);
    await sleep(5);
    const stopping = w.stop();
    await stopping;
    expect(active).to.equal(0);
    const after = finished;
    await sleep(40);
    expect(finished).to.equal(after);
    expect(w.state).to.equal('stopped');
    expect(w.scheduled).to.equal(false);
  });

  it('a failing run is counted and logged, never thrown; the metrics carry the worker', async () => {
    const w = new Worker({ name: 'test-failing', intervalMs: 1000, run: () => Promise.reject(new Error('boom')) });
    await w.tick();
    await w.tick();
    expect(w.stats()).to.include({ runs: 2, failures: 2, lastError: 'boom' });
    const text = await registry.metrics();
    expect(text).to.match(/backoffice_worker_failures_total\{worker="test-failing"\} 2/);
    expect(text).to.match(/backoffice_worker_last_run_duration_seconds\{worker="test-failing"\}/);
    await w.stop();
  });

  it('with a lease: runs only when it wins it, releases it after; the stop signal reaches the run', async () => {
    let holder: string | null = 'other';
    const lease: LeaseStrategy = {
      acquire: async (owner) => {
        if (holder && holder !== owner) return false;
        holder = owner;
        return true;
      },
      release: async (owner) => {
        if (holder === owner) holder = null;
      },
    };
    let ran = 0;
    let aborted = false;
    const w = new Worker({
      name: 'test-lease',
      intervalMs: 1000,
      lease,
      run: async ({ signal, renewLease }) => {
        ran++;
        expect(await renewLease()).to.equal(true);
        await sleep(30);
        aborted = signal.aborted;
      },
    });
    await w.tick();
    expect(ran).to.equal(0);
    expect(w.stats().leaseSkipped).to.equal(1);
    holder = null;
    const tick = w.tick();
    await sleep(5);
    await w.stop();
    await tick;
    expect(ran).to.equal(1);
    expect(aborted).to.equal(true);
    expect(holder).to.equal(null);
  });
});

describe('composition root: every background worker listed and stopped by shutdown', () => {
  // The batch runner is the process's one: a fresh (unstarted) worker lets later uploads run their jobs again.
  after(() => void batchRunner.worker(60_000));

  it('lists each job once, the webhook dispatcher included; shutdown stops them all before the database closes', async () => {
    const workers = backgroundWorkers({
      webhookDispatchMs: 60_000,
      dfeScheduler: true,
      nfeBatch: true,
      manifestationDeadlines: true,
      recovery: true,
    });
    expect(workers.map((w) => w.name)).to.have.members([
      'webhook-dispatch',
      'dfe-scheduler',
      'certificate-expiry',
      'nfe-batch-sweep',
      'nfe-manifestation-deadlines',
      'invoice-recovery',
      'nfce-transmission-queue',
      'invoice-delivery',
      'sped-efd',
    ]);
    let slowDone = false;
    const slow = new Worker({
      name: 'test-slow',
      intervalMs: 60_000,
      runAtStart: true,
      run: () => sleep(100).then(() => (slowDone = true)),
    });
    for (const w of [...workers, slow]) w.start();
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    let states: string[] = [];
    await shutdown({ server, workers: [...workers, slow] }, async () => {
      states = [...workers, slow].map((w) => `${w.name}:${w.state}:${w.scheduled}`);
      expect(slowDone).to.equal(true);
    });
    expect(states).to.deep.equal([...workers, slow].map((w) => `${w.name}:stopped:false`));
    expect(server.listening).to.equal(false);
  });
});
