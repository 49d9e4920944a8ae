import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import Hashids from 'hashids';
import Joi from 'joi';
import { BroadcasterResult } from 'typeorm/subscriber/BroadcasterResult';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { config } from '../../src/core/config';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { singleEncoder } from '../../src/core/hashids';
import '../../src/core/http/validate';
import '../../src/modules/fiscal-xml/xmldom-regex-cache';
import { buildNfe, manyItems } from '../support/nfe-builder';

/*
 * Libraries are used as published; the few internals kept (a benchmark showed each pays more than 5 %
 * of its operation's CPU) are listed in one registry, docs/decisions/library-internals.md, with the
 * library pinned exactly. This test holds src/ to the registry — a deep import of a package (a path
 * inside it that its package.json does not export by name) that is not registered fails here — and
 * each registered internal to the shape this repository relies on, so that an upgrade which changes
 * it fails loudly here rather than quietly in production.
 */
const root = path.resolve(__dirname, '../..');
const REGISTRY = path.join(root, 'docs/decisions/library-internals.md');

/** Every module specifier of a source file: imports and exports (type-only ones too), bare imports, import(), require(). */
export function specifiersOf(source: string): string[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]/gm)) out.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  for (const m of text.matchAll(/\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  return out;
}

/** The package a bare specifier names, and the path inside it ('' for the package itself); null for relative and Node's own. */
export function splitSpecifier(specifier: string): { pkg: string; subpath: string } | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const n = specifier.startsWith('@') ? 2 : 1;
  return { pkg: parts.slice(0, n).join('/'), subpath: parts.slice(n).join('/') };
}

/** Whether the package's own `exports` names this subpath (not through a `*` pattern): then it is published. */
function exportedByName(pkg: string, subpath: string): boolean {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { exports?: unknown };
  return (
    typeof manifest.exports === 'object' &&
    manifest.exports !== null &&
    Object.prototype.hasOwnProperty.call(manifest.exports, `./${subpath}`)
  );
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Deep imports of src/: specifier → the files that use it. */
function deepImportsOfSrc(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    for (const specifier of specifiersOf(fs.readFileSync(file, 'utf8'))) {
      const s = splitSpecifier(specifier);
      if (!s || !s.subpath || exportedByName(s.pkg, s.subpath)) continue;
      found.set(specifier, [...(found.get(specifier) ?? []), path.relative(root, file)]);
    }
  }
  return found;
}

interface Entry {
  specifiers: string[];
  pkg: string;
  version: string;
}

/** The registry's table: each row's first cell lists the imports (in backticks), the second the library and its pinned version. */
function registry(): Entry[] {
  const text = fs.readFileSync(REGISTRY, 'utf8');
  const start = text.indexOf('## Registry');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) => {
      const cells = line.split('|').map((c) => c.trim());
      const specifiers = [...cells[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      const lib = /^`?([^`\s]+)`?\s+([0-9][^\s]*)$/.exec(cells[2]);
      if (!lib) throw new Error(`registry row without "library version": ${line}`);
      return { specifiers, pkg: lib[1], version: lib[2] };
    });
}

describe('Library internals: only registered ones, pinned and guarded', () => {
  it('the scanner finds deep imports of every form and leaves published subpaths alone', () => {
    const src = [
      "import { a } from 'joi/lib/common';",
      "import type { B } from 'typeorm/metadata/ColumnMetadata';",
      "export { c } from '@xmldom/xmldom/lib/grammar';",
      "import 'some-lib/register';",
      "const d = require('hashids/cjs/util');",
      "const e = await import('xml-crypto/lib/utils');",
      "import { f } from './local/lib/thing';",
      "import fs from 'node:fs';",
      "import { Pool } from 'mysql2/promise';",
    ].join('\n');
    const deep = specifiersOf(src)
      .map((s) => ({ s, split: splitSpecifier(s) }))
      .filter(({ split }) => split && split.subpath && !(split.pkg === 'mysql2' && exportedByName(split.pkg, split.subpath)))
      .map(({ s }) => s);
    expect(deep).to.deep.equal([
      'joi/lib/common',
      'typeorm/metadata/ColumnMetadata',
      '@xmldom/xmldom/lib/grammar',
      'some-lib/register',
      'xml-crypto/lib/utils',
      'hashids/cjs/util',
    ]);
    expect(exportedByName('mysql2', 'promise')).to.equal(true);
    expect(exportedByName('typeorm', 'driver/mysql/MysqlQueryRunner'), "typeorm's './*' pattern publishes nothing by name").to.equal(false);
  });

  it('every deep import in src/ is in the registry, and every registered one is still used', () => {
    const used = deepImportsOfSrc();
    const registered = new Set(registry().flatMap((e) => e.specifiers));
    const unregistered = [...used].filter(([s]) => !registered.has(s)).map(([s, files]) => `${s} (${files.join(', ')})`);
    expect(
      unregistered,
      'deep imports of a library that docs/decisions/library-internals.md does not list: use the public API, or measure and register it',
    ).to.deep.equal([]);
    const stale = [...registered].filter((s) => !used.has(s));
    expect(stale, 'registered internals no longer used: remove them from the registry').to.deep.equal([]);
  });

  it('each registered library is pinned exactly in package.json at the installed version the registry names', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const entries = registry();
    expect(entries.length).to.be.greaterThan(0);
    for (const e of entries) {
      const installed = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', e.pkg, 'package.json'), 'utf8')) as { version: string })
        .version;
      expect(pkg.dependencies[e.pkg], `${e.pkg} in package.json`).to.equal(e.version);
      expect(installed, `${e.pkg} installed`).to.equal(e.version);
    }
  });

  describe('joi: its defaults object, abortEarly off (core/http/validate.ts)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal under guard
    const common = require('joi/lib/common') as { defaults: Record<string, unknown>; preferences: unknown };

    it('the object validate.ts mutates is the one joi validates with by default, and its cache still keys on it', () => {
      expect(common.defaults).to.be.an('object');
      expect(common.defaults.abortEarly).to.equal(false);
      const { error } = Joi.object({ a: Joi.number(), b: Joi.number() }).validate({ a: 'x', b: 'y' });
      expect(error?.details.map((d) => d.path.join('.'))).to.deep.equal(['a', 'b']);
      // The reason it is mutated rather than passed per call: merged preferences are cached only for the defaults object.
      const validator = fs.readFileSync(path.join(path.dirname(require.resolve('joi/lib/common')), 'validator.js'), 'utf8');
      expect(validator).to.include('prefs === Common.defaults');
    });

    it('answers what joi as published answers with abortEarly: false', () => {
      const schema = Joi.object({
        id: Joi.string().messages({ 'string.base': '{{#label}} is no id' }),
        n: Joi.number().integer().min(1),
        list: Joi.array().items(Joi.number()).max(2),
      });
      for (const input of [{ id: 1, n: 0, list: [1, 'a', 3] }, { id: 'x', n: '3', list: ['1'] }, { extra: true }, {}]) {
        const mutated = schema.validate(input);
        const published = schema.validate(input, { abortEarly: false });
        expect(JSON.stringify(mutated.error?.details ?? mutated.value), JSON.stringify(input)).to.equal(
          JSON.stringify(published.error?.details ?? published.value),
        );
      }
    });
  });

  describe('hashids: the encoder tables (core/hashids.ts singleEncoder)', () => {
    it("the library's internal shuffle and the private fields the tables are derived from", () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal under guard
      const { shuffle } = require('hashids/cjs/util') as { shuffle: unknown };
      expect(shuffle).to.be.a('function');
      const h = new Hashids('salt', 8) as unknown as Record<string, unknown>;
      for (const field of ['alphabet', 'salt', 'guards']) expect(h[field], field).to.be.an('array');
    });

    it("the tables build for this configuration (a mismatch would fall back to the library's speed silently)", () => {
      for (const type of ['sales-order', 'product', 'customer']) {
        const lib = new Hashids(`${config.hashids.salt}:${type}`, config.hashids.minLength);
        const fast = singleEncoder(lib, config.hashids.minLength);
        expect(fast, type).to.be.a('function');
        for (const id of [1, 42, 1000, 123_456, 2_147_483_647]) expect(fast!(id)).to.equal(lib.encode(id));
      }
    });
  });

  describe('@xmldom/xmldom: grammar.reg memoised (fiscal-xml/xmldom-regex-cache.ts)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal under guard
    const grammar = require('@xmldom/xmldom/lib/grammar') as {
      reg: (...parts: unknown[]) => RegExp;
      QName_group: RegExp;
      S_OPT: RegExp;
      __cachedReg?: boolean;
    };

    /** xmldom as published: a fresh copy of all its modules, loaded without the patch. */
    function freshXmldom(): typeof import('@xmldom/xmldom') {
      const dir = path.dirname(require.resolve('@xmldom/xmldom/package.json'));
      const saved = Object.keys(require.cache).filter((k) => k.startsWith(dir));
      const entries = saved.map((k) => [k, require.cache[k]] as const);
      for (const k of saved) delete require.cache[k];
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second, unpatched instance
        return require('@xmldom/xmldom') as typeof import('@xmldom/xmldom');
      } finally {
        for (const k of Object.keys(require.cache)) if (k.startsWith(dir)) delete require.cache[k];
        for (const [k, v] of entries) require.cache[k] = v;
      }
    }

    it('sax builds its end-tag expression through grammar.reg, which the patch memoises to the same expression', () => {
      const sax = fs.readFileSync(require.resolve('@xmldom/xmldom/lib/sax'), 'utf8');
      expect(sax).to.include("g.reg('^', g.QName_group, g.S_OPT, '$')");
      expect(grammar.__cachedReg).to.equal(true);
      const re = grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$');
      expect(grammar.reg('^', grammar.QName_group, grammar.S_OPT, '$')).to.equal(re);
      const file = require.resolve('@xmldom/xmldom/lib/grammar');
      const loaded = require.cache[file];
      delete require.cache[file];
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the unpatched grammar
      const published = require(file) as typeof grammar;
      require.cache[file] = loaded;
      expect(published.__cachedReg).to.equal(undefined);
      const theirs = published.reg('^', grammar.QName_group, grammar.S_OPT, '$');
      expect([re.source, re.flags, re.global || re.sticky]).to.deep.equal([theirs.source, theirs.flags, false]);
    });

    it('documents parse to the same DOM, and fail the same, with the patch and without', () => {
      const fresh = freshXmldom();
      const nfe = buildNfe({ number: 4242, recipient: { cnpj: '23765766000162' }, items: manyItems(30) }).xml;
      const samples = [
        nfe,
        '<a xmlns:p="urn:p"><p:b x="1">t</p:b ><c/></a>',
        '<a><b></a>',
        '<a></b >',
        '<r>&amp;<![CDATA[x]]><!-- c --><?pi d?></r>',
      ];
      for (const xml of samples) {
        const read = (lib: { DOMParser: typeof DOMParser; XMLSerializer: typeof XMLSerializer }) => {
          const errors: string[] = [];
          try {
            const doc = new lib.DOMParser({
              onError: (level, message) => void (level !== 'warning' && errors.push(message)),
            }).parseFromString(xml, 'text/xml');
            return { text: new lib.XMLSerializer().serializeToString(doc), errors };
          } catch (err) {
            return { text: null, errors: [...errors, (err as Error).message] };
          }
        };
        expect(read({ DOMParser, XMLSerializer }), xml.slice(0, 60)).to.deep.equal(read(fresh));
      }
    });
  });

  describe('typeorm: what the batching query runner (core/db/batching-query-runner.ts) relies on', () => {
    it("MysqlQueryRunner: the methods it overrides and the state it keeps in TypeORM's own fields", () => {
      for (const method of ['connect', 'release', 'startTransaction', 'commitTransaction', 'rollbackTransaction', 'query']) {
        expect(MysqlQueryRunner.prototype, method).to.respondTo(method);
      }
      const stubDriver = { dataSource: { name: 'stub' } } as unknown as ConstructorParameters<typeof MysqlQueryRunner>[0];
      const runner = new MysqlQueryRunner(stubDriver, 'master') as unknown as Record<string, unknown> & {
        broadcaster: Record<string, unknown>;
      };
      expect(runner.driver).to.equal(stubDriver);
      expect(runner.dataSource).to.equal((stubDriver as unknown as { dataSource: unknown }).dataSource);
      expect(runner.isTransactionActive).to.equal(false);
      expect(runner.isReleased).to.equal(false);
      expect(runner.transactionDepth).to.equal(0);
      expect(runner.broadcaster.broadcast).to.be.a('function');
      expect(runner.broadcaster.broadcastAfterQueryEvent).to.be.a('function');
      // release() hands `databaseConnection` back: the runner sets it (and the promise of it) itself.
      const source = fs.readFileSync(require.resolve('typeorm/driver/mysql/MysqlQueryRunner'), 'utf8');
      for (const field of [
        'this.databaseConnection',
        'this.databaseConnectionPromise',
        'this.transactionDepth',
        'this.isTransactionActive',
      ])
        expect(source, field).to.include(field);
      const result = new BroadcasterResult();
      expect(result.wait).to.be.a('function');
    });

    it('the MySQL driver: its mysql2 module, connection options and per-connection preparation', function () {
      if (!isMysql) this.skip();
      const driver = dataSource.driver as unknown as Record<string, unknown>;
      expect((driver.mysql as { createPool?: unknown }).createPool).to.be.a('function');
      expect(driver.createConnectionOptions).to.be.a('function');
      expect(driver.prepareDbConnection).to.be.a('function');
      expect(driver.options).to.be.an('object');
      expect(driver.pool, "TypeORM's own pool (queryOnce takes a connection of it)").to.be.an('object');
    });
  });
});
