import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { validateConfig } from '../../src/core/config';
import { parseDbUrl } from '../../src/core/config/db-url';
import { errorMiddleware } from '../../src/core/errors/error-middleware';
import { config } from '../../src/core/config';
import { isMysql } from '../../src/core/db/engine';
import { hostHealth, HostPool, leaveOut, nodeStateProblem, resetHostHealth } from '../../src/core/db/host-pool';

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
      throw Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true });
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
    expect(nodeStateProblem(rows({ wsrep_local_state: '1', wsrep_local_state_comment: 'Joining', wsrep_ready: 'OFF' }))).to.match(/not Synced: Joining/);
    expect(nodeStateProblem(rows({ wsrep_local_state: '2', wsrep_local_state_comment: 'Donor/Desynced', wsrep_ready: 'ON' }))).to.match(/Donor\/Desynced/);
    expect(nodeStateProblem(rows({ wsrep_local_state: '4', wsrep_local_state_comment: 'Synced', wsrep_ready: 'OFF' })), 'not in the primary component').to.match(/wsrep_ready OFF/);
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
      { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), database: url.pathname.slice(1), connectionLimit: 2 },
      [live, { host: '127.0.0.1', port: 40299 }],
      200,
    );
    try {
      for (let i = 0; i < 4; i++) {
        const c = await new Promise<import('mysql2').PoolConnection>((resolve, reject) => pool.getConnection((err, conn) => (err ? reject(err) : resolve(conn!))));
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
});
