// The Galera suite (npm run test:galera): starts the local 3-node cluster unless it is running, and
// points this process at all three nodes before anything reads the configuration.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const started = Date.now();
const out = execFileSync('bash', [path.join(root, 'scripts/galera.sh'), 'start'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const url = /^DB_URL=(.*)$/m.exec(out);
if (!url) throw new Error(`scripts/galera.sh start printed no DB_URL:\n${out}`);
process.env.DB_URL = url[1];
process.env.GALERA_START_MS = String(Date.now() - started);
// Nodes that refused a connection are tried again soon: the failover test restarts one.
process.env.DB_HOST_RETRY_MS = process.env.DB_HOST_RETRY_MS || '500';
// The tests compile fast (no type check here; `npm run typecheck` covers these files).
process.env.TS_NODE_TRANSPILE_ONLY = process.env.TS_NODE_TRANSPILE_ONLY || '1';
