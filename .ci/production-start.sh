#!/usr/bin/env bash
# The compiled production start works from a production-only install: `npm run build`, then in a
# scratch folder holding only dist/ and the package files, `npm ci --omit=dev`, the compiled
# migrations (`npm run migration:run:prod`), and `npm run start:prod` answering /api/health.
# npm installs ts-node and typescript even with --omit=dev (peers of typeorm), so every package
# named in devDependencies is removed before the start: the runtime must not need one.
# Cost: one tsc build and an install from the npm cache; better-sqlite3's native build is reused
# from the full install (same machine, same Node) instead of being compiled again.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run -s build
prod=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$prod"
}
trap cleanup EXIT

cp -r dist package.json package-lock.json "$prod"/
(cd "$prod" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error)
cp -r node_modules/better-sqlite3/build "$prod"/node_modules/better-sqlite3/
(cd "$prod" && node -e '
  const fs = require("fs");
  for (const name of [...Object.keys(require("./package.json").devDependencies), "@types"]) fs.rmSync(`node_modules/${name}`, { recursive: true, force: true });
')

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
export NODE_ENV=production JWT_SECRET=ci-production-start-secret-0123 HASHIDS_SALT=ci-production-salt \
  CERT_ENCRYPTION_KEY=0000000000000000000000000000000000000000000000000000000000000000 \
  SQLITE_FILE="$prod/data/production.sqlite" PORT="$port" LOG_LEVEL=warn DB_URL=
cd "$prod"
npm run -s migration:run:prod >/dev/null
npm run -s migration:show:prod | grep -q '\[ \]' && { echo "migrations left pending after migration:run:prod"; exit 1; }
node dist/src/main.js >"$prod/start.log" 2>&1 &
pid=$!
for _ in $(seq 1 60); do
  if health=$(curl -sf "http://127.0.0.1:$port/api/health"); then
    echo "compiled start answered /api/health: $health"
    exit 0
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
echo "the compiled start did not answer /api/health:"
cat "$prod/start.log"
exit 1
