import { expect } from 'chai';
import net from 'node:net';
import express from 'express';
import supertest from 'supertest';
import { validateConfig } from '../../src/core/config';
import { parseDbUrl } from '../../src/core/config/db-url';
import { errorMiddleware } from '../../src/core/errors/error-middleware';
import { config } from '../../src/core/config';
import { isMysql } from '../../src/core/db/engine';
import { hostHealth, HostPool, leaveOut, nodeStateProblem, resetHostHealth } from '../../src/core/db/host-pool';
import { DeferredWriteFailed, isDatabaseUnavailable } from '../../src/core/db/db-errors';

/* Several database hosts (a Galera cluster) and what a request answers when its database node dies. */
describe('Database hosts (DB_URL host list, DB_HOSTS)', () => {
  it('a URL with several hosts keeps its first for the driver and lists them all', () => {
    expect(parseDbUrl('mysql://root:pw@10.0.0.1:3306,10.0.0.2,db-3:3307/shop?ssl=false')).to.deep.equal({
      url: 'mysql://root:pw@10.0.0.1:3306/shop?ssl=false',
      hosts: [
        { host: '10.0.0.1', port: 3306 },
        { host: '10.0.0.2', port: 3306 },
        { host: 'db-3', port: 3307 },
      ],
    });
  });

  it('DB_HOSTS replaces the URL hosts; a single host stays a single host', () => {
    const c = validateConfig({ DB_URL: 'mariadb://app@localhost/shop', DB_HOSTS: 'n1:40611,n2:40612' });
    expect(c.db.url).to.equal('mariadb://app@n1:40611/shop');
    expect(c.db.hosts).to.deep.equal([
      { host: 'n1', port: 40611 },
      { host: 'n2', port: 40612 },
    ]);
    expect(c.db.flavor).to.equal('mariadb');
    expect(validateConfig({ DB_URL: 'mysql://root@127.0.0.1:3306/t' }).db.hosts).to.deep.equal([{ host: '127.0.0.1', port: 3306 }]);
  });

  it('socketPath in DB_URL: a local server through its Unix socket (one host, absolute path)', async () => {
    const c = validateConfig({ DB_URL: 'mysql://root@localhost/shop?socketPath=/run/mysqld/mysqld.sock' });
    expect(c.db.socketPath).to.equal('/run/mysqld/mysqld.sock');
    expect(validateConfig({ DB_URL: 'mysql://root@127.0.0.1:3306/shop' }).db.socketPath).to.equal(undefined);
    expect(() => validateConfig({ DB_URL: 'mysql://root@a,b/shop?socketPath=/run/mysqld/mysqld.sock' })).to.throw(/DB_URL.*socketPath/);
    expect(() => validateConfig({ DB_URL: 'mysql://root@a/shop?socketPath=mysqld.sock' })).to.throw(/DB_URL.*socketPath/);
    // The running suite's own connections, when it was started with a socket, really use it.
    if (isMysql && config.db.socketPath) {
      const { dataSource } = await import('../../src/core/db/data-source');
      const [row] = await dataSource.query('SELECT (SELECT HOST FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()) AS host');
      expect(row.host).to.equal('localhost');
    }
  });

  it('a malformed host list names its variable', () => {
    expect(() => validateConfig({ DB_URL: 'mysql://root@a:1,,b:2/db' })).to.throw(/DB_URL/);
    expect(() => validateConfig({ DB_URL: 'mysql://root@a/db', DB_HOSTS: 'a:99999' })).to.throw(/DB_HOSTS/);
  });

  it('a database connection lost under a request → 503 DATABASE_UNAVAILABLE with Retry-After', async () => {
    const app = express();
    app.get('/lost', () => {
      throw Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
        fatal: true,
      });
    });
    app.get('/refused', () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', fatal: true });
    });
    app.use(errorMiddleware);
    for (const route of ['/lost', '/refused']) {
      const res = await supertest(app).get(route);
      expect(res.status).to.equal(503);
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body).to.include({ code: 'DATABASE_UNAVAILABLE', retryable: true, status: 503 });
    }
  });

  it("a node's Galera state: a server without Galera serves; a Galera node only Synced and ready", () => {
    const rows = (status: Record<string, string>) => Object.entries(status).map(([Variable_name, Value]) => ({ Variable_name, Value }));
    expect(nodeStateProblem([])).to.equal(null);
    expect(nodeStateProblem(rows({ wsrep_ready: 'OFF' })), 'wsrep off (no provider)').to.equal(null);
    expect(nodeStateProblem(rows({ wsrep_local_state: '4', wsrep_local_state_comment: 'Synced', wsrep_ready: 'ON' }))).to.equal(null);
    expect(nodeStateProblem(rows({ wsrep_local_state: '1', wsrep_local_state_comment: 'Joining', wsrep_ready: 'OFF' }))).to.match(
      /not Synced: Joining/,
    );
    expect(nodeStateProblem(rows({ wsrep_local_state: '2', wsrep_local_state_comment: 'Donor/Desynced', wsrep_ready: 'ON' }))).to.match(
      /Donor\/Desynced/,
    );
    expect(
      nodeStateProblem(rows({ wsrep_local_state: '4', wsrep_local_state_comment: 'Synced', wsrep_ready: 'OFF' })),
      'not in the primary component',
    ).to.match(/wsrep_ready OFF/);
  });

  it('a host left out waits twice as long after each failed try, at most 8× the retry time', () => {
    resetHostHealth();
    const h = hostHealth('db-x:3306');
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const now = Date.now();
      leaveOut(h, 100, 'ECONNREFUSED');
      waits.push(Math.round((h.offlineUntil - now) / 100));
    }
    expect(waits).to.deep.equal([1, 2, 4, 8, 8, 8]);
    expect(h).to.include({ probation: true, timesLeftOut: 6, timesNotSynced: 0 });
    resetHostHealth();
  });

  it('a pool over a live host and a refused one serves every connection from the live one', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const live = config.db.hosts[0];
    const url = new URL(config.db.url!.replace(/^\w+:/, 'http:'));
    const pool = new HostPool(
      {
        user: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
        database: url.pathname.slice(1),
        connectionLimit: 2,
      },
      [live, { host: '127.0.0.1', port: 40299 }],
      200,
    );
    try {
      for (let i = 0; i < 4; i++) {
        const c = await new Promise<import('mysql2').PoolConnection>((resolve, reject) =>
          pool.getConnection((err, conn) => (err ? reject(err) : resolve(conn!))),
        );
        c.release();
      }
      const [, refused] = pool.health();
      expect(refused.reason).to.match(/ECONNREFUSED/);
      expect(refused.failures).to.equal(1);
      expect(pool.health()[0]).to.include({ failures: 0, offlineUntil: 0 });
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      resetHostHealth();
    }
  });
  // A node that stops answering without closing its sockets (partitioned, frozen): a listener that takes
  // connections and never says a word. Before the deadlines, a pool over it waited forever (issue 50).
  async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      close: () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        }),
    };
  }

  const poolOptions = () => {
    const url = new URL(config.db.url!.replace(/^\w+:/, 'http:'));
    return {
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
      connectionLimit: 2,
    };
  };
  const take = (pool: HostPool) =>
    new Promise<import('mysql2').PoolConnection>((resolve, reject) =>
      pool.getConnection((err, conn) => (err ? reject(err) : resolve(conn!))),
    );

  it('a host that takes the connection and never answers is left out after the acquire deadline; the live one serves', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const silent = await silentServer();
    const pool = new HostPool(poolOptions(), [{ host: '127.0.0.1', port: silent.port }, config.db.hosts[0]], 200, {
      acquireTimeoutMs: 300,
      statementTimeoutMs: 0,
    });
    try {
      const started = Date.now();
      for (let i = 0; i < 3; i++) (await take(pool)).release();
      expect(Date.now() - started).to.be.below(3000);
      const [mute, live] = pool.health();
      expect(mute.reason).to.match(/^POOL_ACQUIRE_TIMEOUT/);
      expect(mute.failures).to.equal(1);
      expect(live).to.include({ failures: 0, offlineUntil: 0 });
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      await silent.close();
      resetHostHealth();
    }
  });

  it('only silent hosts: getConnection fails within the deadline with an error a request answers 503 for', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const a = await silentServer();
    const b = await silentServer();
    const pool = new HostPool(
      poolOptions(),
      [
        { host: '127.0.0.1', port: a.port },
        { host: '127.0.0.1', port: b.port },
      ],
      60000,
      { acquireTimeoutMs: 250, statementTimeoutMs: 0 },
    );
    try {
      const started = Date.now();
      const err = await take(pool).then(
        () => null,
        (e: Error) => e,
      );
      expect(Date.now() - started).to.be.below(2000);
      expect((err as { code?: string }).code).to.equal('POOL_ACQUIRE_TIMEOUT');
      expect(isDatabaseUnavailable(err)).to.equal(true);
      // Both out now: the next try answers at once.
      const again = await take(pool).then(
        () => null,
        (e: Error) => e,
      );
      expect((again as { code?: string }).code).to.equal('POOL_NONEONLINE');
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      await a.close();
      await b.close();
      resetHostHealth();
    }
  });

  it('a statement without an answer past the statement deadline fails as unavailable; its connection is closed and its host rests', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const pool = new HostPool(poolOptions(), [config.db.hosts[0], { host: '127.0.0.1', port: 40299 }], 200, {
      acquireTimeoutMs: 2000,
      statementTimeoutMs: 300,
    });
    try {
      const connection = await take(pool);
      const started = Date.now();
      const err = await new Promise<Error | null>((resolve) => connection.query('SELECT SLEEP(3)', (e) => resolve(e)));
      expect(Date.now() - started).to.be.below(2500);
      expect((err as { code?: string }).code).to.equal('PROTOCOL_SEQUENCE_TIMEOUT');
      expect(isDatabaseUnavailable(err)).to.equal(true);
      connection.release();
      expect(pool.health()[0].reason).to.match(/^PROTOCOL_SEQUENCE_TIMEOUT/);
      // Back after its rest (on probation, from a new checked connection); a statement that answers in time is untouched.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const next = await take(pool);
      const rows = await new Promise<unknown>((resolve, reject) => next.query('SELECT 1 AS one', (e, r) => (e ? reject(e) : resolve(r))));
      expect(rows).to.deep.equal([{ one: 1 }]);
      next.release();
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      resetHostHealth();
    }
  });
  it('one server (the usual DB_URL) has the deadlines too: a silent one fails within the acquire deadline, is never left out, and the next request tries it again', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const silent = await silentServer();
    const pool = new HostPool(poolOptions(), [{ host: '127.0.0.1', port: silent.port }], 200, {
      acquireTimeoutMs: 250,
      statementTimeoutMs: 0,
    });
    try {
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const err = await take(pool).then(
          () => null,
          (e: Error) => e,
        );
        expect(Date.now() - started).to.be.within(200, 2000);
        expect((err as { code?: string }).code, 'each try waits its own deadline: nowhere else to go').to.equal('POOL_ACQUIRE_TIMEOUT');
        expect(isDatabaseUnavailable(err)).to.equal(true);
        expect(pool.health()[0]).to.include({ failures: 0, offlineUntil: 0, timesLeftOut: 0 });
      }
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      await silent.close();
      resetHostHealth();
    }
  });

  it('one server: a statement past the statement deadline fails as unavailable and its connection is closed; the server serves the next one', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const pool = new HostPool(poolOptions(), [config.db.hosts[0]], 200, { acquireTimeoutMs: 2000, statementTimeoutMs: 300 });
    try {
      const connection = await take(pool);
      const err = await new Promise<Error | null>((resolve) => connection.query('SELECT SLEEP(3)', (e) => resolve(e)));
      expect((err as { code?: string }).code).to.equal('PROTOCOL_SEQUENCE_TIMEOUT');
      expect(isDatabaseUnavailable(err)).to.equal(true);
      connection.release();
      expect(pool.health()[0]).to.include({ failures: 0, offlineUntil: 0 });
      const next = await take(pool);
      expect(next).to.not.equal(connection);
      const rows = await new Promise<unknown>((resolve, reject) => next.query('SELECT 1 AS one', (e, r) => (e ? reject(e) : resolve(r))));
      expect(rows).to.deep.equal([{ one: 1 }]);
      next.release();
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      resetHostHealth();
    }
  });

  it('every connection in use: a request waits for one (the longer deadline), then 503 POOL_BUSY — the host stays in service', async function () {
    if (!isMysql) return this.skip();
    resetHostHealth();
    const pool = new HostPool({ ...poolOptions(), connectionLimit: 1 }, [config.db.hosts[0], { host: '127.0.0.1', port: 40299 }], 200, {
      acquireTimeoutMs: 150,
      statementTimeoutMs: 400,
    });
    try {
      const held = await take(pool);
      // Given back within the wait: the queued request gets it, although past the acquire deadline.
      setTimeout(() => held.release(), 250);
      const queued = await take(pool);
      expect(queued.threadId).to.equal(held.threadId);
      const started = Date.now();
      const err = await take(pool).then(
        () => null,
        (e: Error) => e,
      );
      expect(Date.now() - started).to.be.within(350, 3000);
      expect((err as { code?: string }).code).to.equal('POOL_BUSY');
      expect(isDatabaseUnavailable(err)).to.equal(true);
      expect(pool.health()[0]).to.include({ failures: 0, offlineUntil: 0, timesLeftOut: 0 });
      queued.release();
      (await take(pool)).release();
    } finally {
      await new Promise((resolve) => pool.end(resolve));
      resetHostHealth();
    }
  });

  it('a node out of the primary component (partition) and a deferred write lost with its node are "unavailable", not 500s', () => {
    // MariaDB 10.11 on a minority node: a generic errno with the provider's status in the message.
    const fragment = Object.assign(
      new Error('Error while appending streaming replication fragment(provider status: Not connected to Primary Component)'),
      { errno: 1180 },
    );
    expect(isDatabaseUnavailable(fragment)).to.equal(true);
    const notReady = Object.assign(new Error('WSREP has not yet prepared node for application use'), {
      code: 'ER_UNKNOWN_COM_ERROR',
      errno: 1047,
    });
    expect(isDatabaseUnavailable(new DeferredWriteFailed('insert into sales_order', notReady))).to.equal(true);
    expect(
      isDatabaseUnavailable(
        new DeferredWriteFailed('insert into sales_order', Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' })),
      ),
    ).to.equal(false);
  });
});
