import { parentPort } from 'node:worker_threads';
import { verifyNfeSignature } from '../../fiscal-xml';

/* Worker thread of signature-pool.ts: verifies one NF-e signature per message. */
parentPort?.on('message', (m: { id: number; xml: string; infNFeId: string }) => {
  try {
    parentPort!.postMessage({ id: m.id, result: verifyNfeSignature(m.xml, m.infNFeId) });
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: (err as Error).message });
  }
});
