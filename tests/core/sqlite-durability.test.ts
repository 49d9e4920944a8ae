import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';

/*
 * Issue 12: the embedded database ran WAL with synchronous = NORMAL, durable against a crash of the
 * process but not of the machine. It runs synchronous = FULL: every commit is synced before it answers.
 */
describe('SQLite durability (embedded engine)', () => {
  before(function () {
    if (isMysql) this.skip();
  });

  it('the open database runs synchronous = FULL', async () => {
    expect(await dataSource.query('PRAGMA synchronous')).to.deep.equal([{ synchronous: 2 }]);
  });

  it('a database file opens in WAL with synchronous = FULL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-durability-'));
    const file = new DataSource(buildDataSourceOptions({ sqliteFile: path.join(dir, 'shop.sqlite') }));
    await file.initialize();
    try {
      expect(await file.query('PRAGMA journal_mode')).to.deep.equal([{ journal_mode: 'wal' }]);
      expect(await file.query('PRAGMA synchronous')).to.deep.equal([{ synchronous: 2 }]);
    } finally {
      await file.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
