import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * Module seams (docs/architecture.md, Rules): dependency-cruiser reads every import in src/ (type-only
 * ones too) against .dependency-cruiser.cjs — no import cycle between files, a module reaches another
 * only through its front door (src/modules/<m>/index.ts; the composition root too), no import of
 * another module's repository, controller or router, core/ imports no module, no module imports src/demo.
 * On top of that, modules must not depend on each other in a circle, not even two of them: where a
 * module needs work from one that depends on it, it declares a port (core/port.ts) that
 * src/modules/index.ts plugs the provider into.
 */

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Cruise {
  modules: { source: string; dependencies: { resolved: string; dynamic?: boolean }[] }[];
  summary: {
    ruleSetUsed: { forbidden: { name: string }[] };
    violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[];
  };
}

/** One cycle of the graph as a path "a -> b -> a", or null. */
function findCycle(edges: Map<string, Set<string>>): string | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next].join(' -> ');
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...edges.keys()].sort()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}

let cruise: Cruise;

const moduleOf = (file: string) => /^src\/modules\/([^/.]+)\//.exec(file)?.[1] ?? null;

describe('module boundaries (dependency-cruiser over src/)', function () {
  this.timeout(180_000);

  before(async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    cruise = JSON.parse(stdout) as Cruise;
  });

  it('reads the whole of src/', () => {
    expect(cruise.modules.filter((m) => m.source.startsWith('src/modules/')).length).to.be.greaterThan(200);
    expect(cruise.modules.some((m) => m.source === 'src/modules/payables/payables.service.ts')).to.equal(true);
  });

  it('no import cycle, no foreign repository/controller/router, core and demo in their place', () => {
    const lines = cruise.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.cycle?.length ? v.cycle.map((c) => c.name).join(' → ') : v.to}`,
    );
    expect(lines, lines.join('\n')).to.deep.equal([]);
  });

  it('modules, the composition root and the demo seed reach a module through its front door only (src/modules/<m>/index.ts)', () => {
    const rules = cruise.summary.ruleSetUsed.forbidden.map((r) => r.name);
    expect(rules).to.include.members([
      'modules-through-front-doors',
      'composition-root-through-front-doors',
      'authority-imports-no-business-module',
      'authority-reaches-no-business-module',
      'authority-touches-no-database',
      'connection-knows-no-inbound-document',
      'emission-reaches-no-dfe',
      'emission-imports-no-inbound-store',
      'open-items-knows-no-side',
      'emission-kernel-knows-no-kind',
    ]);
    const deep: string[] = [];
    for (const m of cruise.modules) {
      if (!m.source.startsWith('src/') || m.source.startsWith('src/core/')) continue; // core imports no module at all (core-imports-no-module)
      const from = moduleOf(m.source);
      for (const d of m.dependencies) {
        const to = moduleOf(d.resolved);
        if (to && to !== from && d.resolved !== `src/modules/${to}/index.ts`) deep.push(`${m.source} → ${d.resolved}`);
      }
    }
    expect(deep, deep.join('\n')).to.deep.equal([]);
  });

  it('the authority module imports no business module and nothing of the database but the open-transaction guard', () => {
    const reached = new Set<string>();
    for (const m of cruise.modules) {
      if (!m.source.startsWith('src/modules/authority/')) continue;
      for (const d of m.dependencies)
        if (!d.resolved.startsWith('src/modules/authority/')) reached.add(d.resolved.replace(/^.*node_modules\//, 'node_modules/'));
    }
    const foreign = [...reached].filter(
      (r) =>
        (r.startsWith('src/modules/') && !r.startsWith('src/modules/fiscal-xml/')) ||
        r.startsWith('node_modules/typeorm') ||
        (r.startsWith('src/core/db/') && r !== 'src/core/db/transaction.ts'),
    );
    expect(foreign, foreign.join('\n')).to.deep.equal([]);
    expect(reached.size).to.be.greaterThan(3);
  });

  it('emission (outbound-nfe, nfce) imports nothing of the inbound store: the NF-e reader is in fiscal-xml, the DANFE in danfe', () => {
    const inbound = cruise.modules
      .filter((m) => /^src\/modules\/(outbound-nfe|nfce)\//.test(m.source))
      .flatMap((m) =>
        m.dependencies.filter((d) => d.resolved.startsWith('src/modules/inbound-nfe/')).map((d) => `${m.source} → ${d.resolved}`),
      );
    expect(inbound, inbound.join('\n')).to.deep.equal([]);
  });

  it('the open-items kernel imports neither side (payables, receivables) and both sides use it', () => {
    const kernel = cruise.modules.filter((m) => m.source.startsWith('src/modules/open-items/'));
    expect(kernel.length).to.be.greaterThan(2);
    const sides = kernel.flatMap((m) =>
      m.dependencies.filter((d) => /^src\/modules\/(payables|receivables)\//.test(d.resolved)).map((d) => `${m.source} → ${d.resolved}`),
    );
    expect(sides, sides.join('\n')).to.deep.equal([]);
    for (const side of ['payables', 'receivables']) {
      const uses = cruise.modules.some(
        (m) => m.source.startsWith(`src/modules/${side}/`) && m.dependencies.some((d) => d.resolved === 'src/modules/open-items/index.ts'),
      );
      expect(uses, `${side} settles through the open-items kernel`).to.equal(true);
    }
  });

  it('the emission kernel imports neither kind (outbound-nfe, nfce) and both emit through it', () => {
    const kernel = cruise.modules.filter((m) => m.source.startsWith('src/modules/emission/'));
    expect(kernel.length).to.be.greaterThan(2);
    const kinds = kernel.flatMap((m) =>
      m.dependencies.filter((d) => /^src\/modules\/(outbound-nfe|nfce)\//.test(d.resolved)).map((d) => `${m.source} → ${d.resolved}`),
    );
    expect(kinds, kinds.join('\n')).to.deep.equal([]);
    for (const kind of ['outbound-nfe', 'nfce']) {
      const uses = cruise.modules.filter(
        (m) => m.source.startsWith(`src/modules/${kind}/`) && m.dependencies.some((d) => d.resolved === 'src/modules/emission/index.ts'),
      );
      expect(uses.length, `${kind} transmits and recovers through the emission kernel`).to.be.greaterThan(1);
    }
  });

  it('modules do not depend on each other in a circle', () => {
    const edges = new Map<string, Set<string>>();
    for (const m of cruise.modules) {
      const from = moduleOf(m.source);
      if (!from) continue;
      for (const d of m.dependencies) {
        const to = moduleOf(d.resolved);
        if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    expect(findCycle(edges)).to.equal(null);
  });
});
