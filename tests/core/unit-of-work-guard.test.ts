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
