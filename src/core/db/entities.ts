import path from 'node:path';

/** Every `*.entity.ts` under src/ is an entity; modules add theirs by file name alone. */
export const entities = [path.join(__dirname, '../../**/*.entity.{ts,js}')];
