import path from 'node:path';
import { config } from '../../core/config';

/*
 * Where the local authority of `npm start` leaves its address and admin token (for
 * `npm run simulator:feed`) and its documents: next to the embedded database file (data/ by
 * default), so they stay in step with it. Kept apart so the CLI loads nothing else.
 */
export const DATA_DIR = path.resolve(path.dirname(config.db.sqliteFile === ':memory:' ? 'data/memory' : config.db.sqliteFile));
export const INFO_FILE = path.join(DATA_DIR, 'sefaz-simulator.json');
export const STATE_FILE = path.join(DATA_DIR, 'sefaz-simulator.state.json');
