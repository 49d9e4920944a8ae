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
import { type Recording, untag } from './sale-floor-recording';

const { quickSale, fulfil } = JSON.parse(fs.readFileSync(process.env.FLOOR_RECORDINGS!, 'utf8'), untag) as { quickSale: Recording[]; fulfil: Recording[] };
const secret = process.env.JWT_SECRET!;
const pool = mysql.createPool({ uri: process.env.DB_URL, connectionLimit: 24, multipleStatements: true, timezone: 'Z', supportBigNumbers: true, bigNumberStrings: true });

const replay = (recording: Recording) =>
  new Promise<void>((resolve, reject) =>
    pool.getConnection((err, conn) => {
      if (err) return reject(err);
      const next = (i: number): void => {
        if (i === recording.trips.length) {
          conn.release();
          return resolve();
        }
        conn.query(recording.trips[i].sql, recording.trips[i].params, (qErr) => {
          if (qErr) {
            conn.destroy();
            return reject(qErr);
          }
          next(i + 1);
        });
      };
      next(0);
    }),
  );

/** Recordings in turn, so that two requests in flight rarely wait on the same rows. */
const turn = (recordings: Recording[]) => {
  let n = 0;
  return () => recordings[n++ % recordings.length];
};
const nextSale = turn(quickSale);
const nextFulfil = turn(fulfil);

/** FLOOR_SQL=0: the HTTP part alone (body, token, answer), no round trip. */
const sendTrips = process.env.FLOOR_SQL !== '0';
let failures = 0;
let stopping = false;
const app = express();
app.disable('x-powered-by');
app.disable('etag');
const floor = (next: () => Recording) => (req: express.Request, res: express.Response) => {
  try {
    jwt.verify((req.headers.authorization ?? '').slice('Bearer '.length), secret, { algorithms: ['HS256'] });
  } catch {
    res.status(401).end();
    return;
  }
  const recording = next();
  (sendTrips ? replay(recording) : Promise.resolve()).then(
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
