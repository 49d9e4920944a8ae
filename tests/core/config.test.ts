import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { validateConfig } from '../../src/core/config';

describe('Configuration (validated at start)', () => {
  it('production without JWT_SECRET is refused, naming the variable', () => {
    expect(() => validateConfig({ NODE_ENV: 'production', HASHIDS_SALT: 'a-long-salt-value' })).to.throw(/JWT_SECRET/);
  });

  it('a wrong value names its variable', () => {
    expect(() => validateConfig({ PORT: 'eighty' })).to.throw(/PORT/);
    expect(() => validateConfig({ DB_URL: 'postgres://x/y' })).to.throw(/DB_URL/);
  });

  it('development defaults are enough to start', () => {
    const c = validateConfig({});
    expect(c.db.engine).to.equal('sqlite');
    expect(c.auth.secret).to.be.a('string');
  });

  it('`npm start` in production without JWT_SECRET stops with one clear line', function () {
    this.timeout(60_000);
    const root = path.resolve(__dirname, '../..');
    const res = spawnSync(process.execPath, ['-r', 'ts-node/register', 'src/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', HASHIDS_SALT: 'a-long-salt-value' },
      encoding: 'utf8',
    });
    expect(res.status).to.equal(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^Invalid configuration: JWT_SECRET/);
  });
});
