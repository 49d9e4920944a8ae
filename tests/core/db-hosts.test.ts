import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { validateConfig } from '../../src/core/config';
import { parseDbUrl } from '../../src/core/config/db-url';
import { errorMiddleware } from '../../src/core/errors/error-middleware';

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
});
