import { isMysql } from './engine';

/** What openDatabase learned about the database server; read by the statement helpers. */
export const serverTraits = {
  /**
   * One multi-row INSERT gets consecutive ids. SQLite writers are serialized, so it always does;
   * InnoDB does in its "traditional" and "consecutive" auto-increment lock modes (0, 1) with a step of 1.
   */
  consecutiveInsertIds: !isMysql,
};
