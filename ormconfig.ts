// DataSource for the TypeORM CLI (migration:run | revert | show | generate). The engine follows DB_URL
// exactly as the service does: set → MySQL/MariaDB (migrations/mysql), unset → SQLite (migrations/sqlite).
import { dataSource } from './src/core/db/data-source';

export default dataSource;
