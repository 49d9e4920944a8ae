#!/usr/bin/env bash
# Backup and restore drill (docs/operations.md), on one engine:
#   bash scripts/backup-drill.sh sqlite   # the embedded file: SQLite's online backup API (better-sqlite3 db.backup())
#   bash scripts/backup-drill.sh mysql    # MariaDB/MySQL: mariadb-dump --single-transaction, restored into another database
# It builds a database with the demo tenant (products, stock, a confirmed purchase with payables),
# takes the backup while the service's database is open, restores it elsewhere, and checks that the
# restored copy gives back every table's rows and the stock and balance totals, and that every stock
# balance still equals the sum of its movements (what npm run check:stock proves). Exit 0 only when all hold.
# MySQL: DRILL_DB (default backoffice_drill) and DRILL_DB_URL_BASE (default mysql://root@127.0.0.1:3306)
# name the databases; DRILL_DB and DRILL_DB_restore are dropped and re-created.
set -euo pipefail
cd "$(dirname "$0")/.."
engine="${1:-sqlite}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TS_NODE_TRANSPILE_ONLY=1 DEMO_SEED=false LOG_LEVEL=warn
ts() { node -r ts-node/register "$@"; }
started=$SECONDS

case "$engine" in
  sqlite)
    src="$work/backoffice.sqlite"
    restored="$work/restored/backoffice.sqlite"
    SQLITE_FILE="$src" ts scripts/backup-drill-activity.ts >"$work/before.json"
    # Online backup: consistent while the service keeps writing (WAL), page by page.
    node -e "const D=require('better-sqlite3'); const db=new D(process.argv[1],{fileMustExist:true}); db.backup(process.argv[2]).then(()=>db.close()).catch(e=>{console.error(e);process.exit(1)})" "$src" "$work/backup.sqlite"
    # Restore: the backup file put in place of the database (service stopped).
    mkdir -p "$(dirname "$restored")" && cp "$work/backup.sqlite" "$restored"
    SQLITE_FILE="$restored" ts scripts/db-fingerprint.ts --check-stock >"$work/after.json"
    ;;
  mysql)
    base="${DRILL_DB_URL_BASE:-mysql://root@127.0.0.1:3306}"
    db="${DRILL_DB:-backoffice_drill}"
    hostport="${base#mysql://}"; hostport="${hostport#*@}"; host="${hostport%%:*}"; port="${hostport##*:}"
    user="${base#mysql://}"; user="${user%%@*}"; user="${user%%:*}"
    client=(mariadb -h"$host" -P"$port" -u"$user")
    "${client[@]}" -e "DROP DATABASE IF EXISTS \`$db\`; CREATE DATABASE \`$db\`; DROP DATABASE IF EXISTS \`${db}_restore\`; CREATE DATABASE \`${db}_restore\`"
    DB_URL="$base/$db" ts scripts/migrate.ts
    DB_URL="$base/$db" ts scripts/backup-drill-activity.ts >"$work/before.json"
    # A consistent snapshot without locking writers (InnoDB); on a Galera cluster run it against one
    # node (or use mariadb-backup there): see docs/operations.md.
    mariadb-dump -h"$host" -P"$port" -u"$user" --single-transaction --quick --routines --triggers --events --hex-blob "$db" >"$work/backup.sql"
    "${client[@]}" "${db}_restore" <"$work/backup.sql"
    DB_URL="$base/${db}_restore" ts scripts/db-fingerprint.ts --check-stock >"$work/after.json"
    "${client[@]}" -e "DROP DATABASE \`$db\`; DROP DATABASE \`${db}_restore\`"
    ;;
  *) echo "usage: $0 sqlite|mysql" >&2; exit 2 ;;
esac

if ! cmp -s "$work/before.json" "$work/after.json"; then
  echo "✗ the restored database differs from the one backed up:" >&2
  diff <(tr ',' '\n' <"$work/before.json") <(tr ',' '\n' <"$work/after.json") >&2 || true
  exit 1
fi
echo "✓ $engine backup restored: $(node -e "const f=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8'));console.log(Object.values(f.counts).reduce((a,b)=>a+b,0)+' rows in '+Object.keys(f.counts).length+' tables, stock '+f.totals.stockQuantity+', payables '+f.totals.payableAmount+' (paid '+f.totals.payablePaid+')')" "$work/after.json"); $((SECONDS - started)) s"
