import path from 'node:path';

/*
 * Where things are, under `npm start` (TypeScript run from the project) and under the compiled start
 * (`npm run build` writes dist/): the code root holds src/ and migrations/ (the project, or dist/);
 * the project root holds data/ (always the project, so both starts use the same database file).
 */
export const codeRoot = path.resolve(__dirname, '../..');
export const projectRoot = path.extname(__filename) === '.js' ? path.dirname(codeRoot) : codeRoot;
