/*
 * The floor of a 50-item fiscal preview's route (issue 51): express alone (this checkout's), parsing the
 * same JSON body and answering the same response document (read from FLOOR_BODY_FILE, built by the
 * service once) with res.json, in its own process — no auth, validation, reads, engine or mapping.
 * Speaks serve.ts's IPC ('cpu').
 */
import fs from 'node:fs';
import express from 'express';
import { serveFloor } from './floor-process';

const answer: unknown = JSON.parse(fs.readFileSync(process.env.FLOOR_BODY_FILE!, 'utf8'));
const app = express();
app.disable('x-powered-by');
app.post('/floor', express.json({ limit: '1mb' }), (_req, res) => {
  res.json(answer);
});
serveFloor(app);
