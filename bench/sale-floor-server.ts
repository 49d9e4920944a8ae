/*
 * The floor of a quick sale and of a fulfil on this stack (issue 37): express parsing the JSON body,
 * jsonwebtoken verifying the bearer token, mysql2 sending the very round trips the service sends
 * (recorded by sale-floor-parts.bench.ts: the same SQL text and parameters, the last COMMIT turned
 * into ROLLBACK so a recording can be sent again) and the service's recorded answer written back
 * with res.json. No validation, rules, ORM, mapping, audit or events of its own: what is left when
 * everything the service adds to the stack and the statements is gone. Speaks serve.ts's IPC (floor-process.ts).
 */
import fs from 'node:fs';
import express from 'express';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2';
import { serveFloor } from './floor-process';
import { type Recording, type Trip, untag } from './sale-floor-recording';

const recorded = JSON.parse(fs.readFileSync(process.env.FLOOR_RECORDINGS!, 'utf8'), untag) as {
  quickSale: Recording[];
  fulfil: Recording[];
};
const withStatements = (rs: Recording[]) => rs.map((r) => ({ ...r, statements: r.trips.flatMap(statementsOf) }));
const quickSale = withStatements(recorded.quickSale);
const fulfil = withStatements(recorded.fulfil);
const secret = process.env.JWT_SECRET!;
const pool = mysql.createPool({
  uri: process.env.DB_URL,
  connectionLimit: 24,
  multipleStatements: true,
  timezone: 'Z',
  supportBigNumbers: true,
  bigNumberStrings: true,
});

/** FLOOR_SQL: 1 the recorded round trips as they are; prepared, each statement of them a prepared statement (its own round trip); 0 none (the HTTP part alone). */
const mode = process.env.FLOOR_SQL ?? '1';

/** A trip's statements with their own parameters (a batch's statements are joined by `;\n`, each `?` one parameter). */
function statementsOf(trip: Trip): Trip[] {
  let at = 0;
  const statements = trip.sql.split(';\n').map((sql) => {
    const n = sql.split('?').length - 1;
    const params = trip.params.slice(at, at + n);
    at += n;
    return { sql, params };
  });
  if (at !== trip.params.length)
    throw new Error(`cannot split a recorded trip into statements: ${at} placeholders for ${trip.params.length} parameters`);
  return statements;
}

const sendAll = (conn: mysql.PoolConnection, trips: Trip[], prepared: boolean) =>
  new Promise<void>((resolve, reject) => {
    const next = (i: number): void => {
      if (i === trips.length) return resolve();
      const done = (qErr: Error | null) => (qErr ? reject(qErr) : next(i + 1));
      if (prepared && trips[i].params.length) conn.execute(trips[i].sql, trips[i].params as mysql.ExecuteValues[], done);
      else conn.query(trips[i].sql, trips[i].params, done);
    };
    next(0);
  });

const replay = (recording: Recording & { statements: Trip[] }) =>
  new Promise<void>((resolve, reject) =>
    pool.getConnection((err, conn) => {
      if (err) return reject(err);
      const prepared = mode === 'prepared';
      sendAll(conn, prepared ? recording.statements : recording.trips, prepared).then(
        () => {
          conn.release();
          resolve();
        },
        (qErr: Error) => {
          conn.destroy();
          reject(qErr);
        },
      );
    }),
  );

/** Recordings in turn, so that two requests in flight rarely wait on the same rows. */
const turn = <R>(recordings: R[]) => {
  let n = 0;
  return () => recordings[n++ % recordings.length];
};
const nextSale = turn(quickSale);
const nextFulfil = turn(fulfil);

let failures = 0;
let stopping = false;
const app = express();
app.disable('x-powered-by');
app.disable('etag');
const floor = (next: () => Recording & { statements: Trip[] }) => (req: express.Request, res: express.Response) => {
  try {
    jwt.verify((req.headers.authorization ?? '').slice('Bearer '.length), secret, { algorithms: ['HS256'] });
  } catch {
    res.status(401).end();
    return;
  }
  const recording = next();
  (mode === '0' ? Promise.resolve() : replay(recording)).then(
    () => res.status(recording.status).json(recording.body),
    (err: Error) => {
      if (!stopping && !failures++) console.error(`floor replay failed: ${err.message}`);
      res.status(500).json({ error: err.message });
    },
  );
};
app.post('/api/sales-order', express.json(), floor(nextSale));
app.post('/api/sales-order/:id/fulfill', express.json(), floor(nextFulfil));

serveFloor(app, (done) => {
  stopping = true;
  pool.end(done);
});
