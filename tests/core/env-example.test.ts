import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

/*
 * `.env.example` lists every variable the service reads: the keys of the configuration schemas in
 * src/core/config (and any `env.X` they read directly) and every `process.env.X` of the source.
 * A variable added to the configuration without its line here fails this test.
 */
const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('.env.example lists every variable src/core/config reads', () => {
  it('every configuration key and process.env read has its line, with a default or a comment', () => {
    const read = new Set<string>();
    for (const file of sourceFiles(path.join(root, 'src/core/config'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^\s+([A-Z][A-Z0-9_]+): (?:Joi|url\(\))/gm)) read.add(m[1]);
      for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) read.add(m[1]);
    }
    for (const file of sourceFiles(path.join(root, 'src'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)) read.add(m[1]);
    }
    expect(read.size).to.be.greaterThan(60);
    const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect([...read].filter((v) => !listed.has(v)).sort(), 'variables missing from .env.example').to.deep.equal([]);
    expect([...listed].filter((v) => !read.has(v)).sort(), 'variables in .env.example the service does not read').to.deep.equal([]);
  });
});
