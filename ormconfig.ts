// DataSource for the TypeORM CLI (migration:run | revert | show | generate). The engine follows DB_URL
// exactly as the service does: set → MySQL/MariaDB (migrations/mysql), unset → SQLite (migrations/sqlite).
// The CLI's statements have no deadline (an ALTER TABLE of a large table may take minutes): set before
// the configuration is read.
process.env.DB_STATEMENT_TIMEOUT_MS ??= '0';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the line above, not hoisted
const { dataSource } = require('./src/core/db/data-source') as typeof import('./src/core/db/data-source');

export default dataSource;
