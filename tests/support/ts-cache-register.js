/*
 * Loads the service's TypeScript in a child process the suite starts (crash tests), like
 * `ts-node/register/transpile-only`, but keeps each transpiled file on disk (keyed by path and
 * content): a server started again, in this run or the next, skips the compiler altogether.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const dir = path.join(os.tmpdir(), 'backoffice-ts-cache');
fs.mkdirSync(dir, { recursive: true });

let ts;
let compilerOptions;

function compile(source, filename) {
  if (!ts) {
    ts = require('typescript');
    const tsconfig = path.resolve(__dirname, '../../tsconfig.json');
    const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
    compilerOptions = ts.convertCompilerOptionsFromJson(config.compilerOptions, path.dirname(tsconfig)).options;
    compilerOptions.module = ts.ModuleKind.CommonJS;
    compilerOptions.sourceMap = false;
    compilerOptions.inlineSourceMap = false;
  }
  return ts.transpileModule(source, { compilerOptions, fileName: filename }).outputText;
}

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const cached = path.join(dir, `${crypto.createHash('sha1').update(filename).update('\0').update(source).digest('hex')}.js`);
  let js;
  try {
    js = fs.readFileSync(cached, 'utf8');
  } catch {
    js = compile(source, filename);
    const temporary = `${cached}.${process.pid}`;
    fs.writeFileSync(temporary, js);
    fs.renameSync(temporary, cached);
  }
  module._compile(js, filename);
};
