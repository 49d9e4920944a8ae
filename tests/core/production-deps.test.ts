import { expect } from 'chai';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import pkg from '../../package.json';

/*
 * The compiled start runs after `npm ci --omit=dev`: whatever `npm run build` compiles (src/,
 * migrations/, the operators' scripts, ormconfig.ts; tsconfig.build.json) may load only Node's own
 * modules, production dependencies and its own files; never ts-node, typescript, a test library,
 * tests/ or bench/. Type-only imports vanish at compile time and are allowed. `.ci/run` also boots the
 * compiled start with the dev dependencies removed; this test covers the paths a boot does not reach.
 */
const root = path.resolve(__dirname, '../..');
const build = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[]; exclude: string[] };
const excluded = new Set(build.exclude.map((e) => path.join(root, e)));

function filesOf(entry: string): string[] {
  const full = path.join(root, entry);
  if (excluded.has(full)) return [];
  if (fs.statSync(full).isFile()) return full.endsWith('.ts') ? [full] : [];
  return fs.readdirSync(full).flatMap((name) => filesOf(path.join(entry, name)));
}

/** Every module specifier a file loads at run time (import/export … from, bare import, import(), require()). */
export function runtimeSpecifiers(source: string): string[] {
  const out: string[] = [];
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm)) {
    const typeOnly = Boolean(m[2]) || /^\{\s*(type\s+[\w$]+\s*(as\s+[\w$]+\s*)?,?\s*)+\}$/.test(m[3]);
    if (!typeOnly) out.push(m[4]);
  }
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) out.push(m[1]);
  for (const m of text.matchAll(/(typeof\s+)?\bimport\(\s*['"]([^'"]+)['"]\s*\)(\.)?/g)) if (!m[1] && !m[3]) out.push(m[2]);
  for (const m of text.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  return out;
}

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('Production build: run-time imports (npm ci --omit=dev)', () => {
  const files = build.include.flatMap(filesOf);
  const dependencies = new Set(Object.keys(pkg.dependencies));
  const builtins = new Set(builtinModules);

  it('finds the files the build compiles', () => {
    expect(files.some((f) => f.endsWith(path.join('src', 'main.ts')))).to.equal(true);
    expect(files.some((f) => f.includes(`${path.sep}migrations${path.sep}`))).to.equal(true);
    expect(files.some((f) => f.endsWith('migration-generate.ts'))).to.equal(false);
  });

  it('the scanner sees real imports and skips type-only ones', () => {
    const found = runtimeSpecifiers(
      [
        "import type { Options } from 'autocannon';",
        "import { type A, type B } from 'chai';",
        "import express, { Request } from 'express';",
        "let x: typeof import('mocha');",
        "let y: import('supertest').Response;",
        "const z = await import('redis');",
        "import 'reflect-metadata';",
        "// import x from 'ts-node';",
        "export { a } from './a';",
      ].join('\n'),
    );
    expect(found).to.have.members(['express', 'redis', 'reflect-metadata', './a']);
  });

  it('loads only Node’s modules, production dependencies and files of the build', () => {
    const problems: string[] = [];
    for (const file of files) {
      const rel = path.relative(root, file);
      for (const spec of runtimeSpecifiers(fs.readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = path.resolve(path.dirname(file), spec);
          // package.json (the version) is emitted into dist/ beside the code.
          if (target === path.join(root, 'package.json')) continue;
          const inside = build.include.some(
            (inc) => target === path.join(root, inc).replace(/\.ts$/, '') || target.startsWith(path.join(root, inc) + path.sep),
          );
          if (!inside || [...excluded].some((e) => target === e.replace(/\.ts$/, '')))
            problems.push(`${rel}: ${spec} is not part of the build`);
        } else if (!spec.startsWith('node:') && !builtins.has(spec) && !dependencies.has(packageOf(spec))) {
          problems.push(`${rel}: ${spec} is not a production dependency`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
  });
});
