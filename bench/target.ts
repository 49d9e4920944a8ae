/*
 * BENCH_TARGET=/path/to/another/checkout: the benches of this checkout measure that one. Loaded first
 * (`node -r ts-node/register -r bench/target.ts`) in every bench process and in the API process it
 * starts: a module of this checkout's src/ or tests/ resolves to the same file of the target, whose own
 * node_modules then serve it. The harness (bench/, autocannon, the raw-SQL floor) stays this
 * checkout's, so two commits are measured the same way, one after the other.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

export const HARNESS_ROOT = path.resolve(__dirname, '..');
export const TARGET_ROOT = path.resolve(process.env.BENCH_TARGET || HARNESS_ROOT);

/** The target's commit (short hash, `+dirty` when its tree has changes), or its folder when it is no git checkout. */
export function targetLabel(): string {
  try {
    const commit = execFileSync('git', ['-C', TARGET_ROOT, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['-C', TARGET_ROOT, 'status', '--porcelain', '--untracked-files=no', '--', 'src'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return `${commit}${dirty ? '+dirty' : ''}`;
  } catch {
    return path.basename(TARGET_ROOT);
  }
}

/** Files that moved since the older commits the benches are compared with: where the target still has them. */
const MOVED: Record<string, string> = {
  'src/modules/catalog/product-search-index.ts': 'src/modules/product-map/product-search-index.ts',
};

if (TARGET_ROOT !== HARNESS_ROOT) {
  const redirected = ['src', 'tests'].map((dir) => ({
    from: path.join(HARNESS_ROOT, dir) + path.sep,
    to: path.join(TARGET_ROOT, dir) + path.sep,
  }));
  const M = Module as unknown as { _resolveFilename: (request: string, parent: unknown, ...rest: unknown[]) => string };
  const resolve = M._resolveFilename;
  M._resolveFilename = function (request, parent, ...rest) {
    const file = resolve.call(this, request, parent, ...rest);
    const r = redirected.find((d) => file.startsWith(d.from));
    if (!r) return file;
    const relative = path.relative(HARNESS_ROOT, file).split(path.sep).join('/');
    const moved = MOVED[relative];
    const inTarget =
      moved && !fs.existsSync(path.join(TARGET_ROOT, relative)) ? path.join(TARGET_ROOT, moved) : r.to + file.slice(r.from.length);
    return resolve.call(this, inTarget, parent, ...rest);
  };
}
