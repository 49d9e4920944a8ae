/*
 * The floor of a failed request: express alone (this checkout's), parsing a JSON body and answering
 * 400 with a small problem document, in its own process. Speaks serve.ts's IPC ('cpu').
 */
import express from 'express';
import { serveFloor } from './floor-process';

const app = express();
app.disable('x-powered-by');
app.post('/floor', express.json(), (_req, res) => {
  res
    .status(400)
    .type('application/problem+json')
    .send(
      JSON.stringify({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        code: 'VALIDATION_ERROR',
        errors: [{ path: 'items', message: 'invalid' }],
      }),
    );
});
serveFloor(app);
