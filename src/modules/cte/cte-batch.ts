import { readerOf } from '../../core/db/transaction';
import type { BatchDocumentHandler } from '../inbound-nfe';
import { invalid, invalidFromError } from '../inbound-nfe';
import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { isUniqueViolation } from '../../core/db/db-errors';
import { findCteByKey } from './cte.repository';
import { insertStaged, payerOf } from './cte.service';
import { inspectCteXml } from './xml/inspect';

/*
 * CT-e in a batch upload of the NF-e module (cteProc, or a bare CTe): read and checked against the
 * batch's filial exactly as stage-xml does (key, signature, protocol, environment, the filial is the
 * payer), then stored as a RECEIVED CT-e (audit CREATED, event cte.received). A key already stored
 * in the company is a DUPLICATE naming that CT-e. It is staged only: apportioning stays a decision
 * made per CT-e. Registered at the composition root (modules/index.ts).
 */

export const cteBatchHandler: BatchDocumentHandler = {
  kind: 'CTE',
  roots: ['cteProc', 'CTe'],
  // Staging needs nothing else from the batch: the NF-e it carried are resolved when it is read.
  phase: 0,
  async prepare(xml, filial) {
    let inspection;
    try {
      inspection = await inspectCteXml(xml, payerOf(filial));
    } catch (err) {
      return invalidFromError(err, 'CTE_XML_INVALID');
    }
    const key = inspection.cte.accessKey;
    const validKey = ACCESS_KEY_PATTERN.test(key) ? key : null;
    if (!inspection.report.valid) {
      const first = inspection.report.checks.find((c) => c.blocking)!;
      return invalid(first.code!, first.message, validKey);
    }
    return {
      accessKey: key,
      async apply(em, ctx) {
        const existing = await findCteByKey(em, ctx.companyId, key);
        if (existing)
          return {
            status: 'DUPLICATE',
            accessKey: key,
            inboundId: null,
            cteId: existing.id,
            problemCode: null,
            message: `CT-e already stored (${existing.status})`,
          };
        try {
          const cte = await insertStaged(em, ctx, filial, xml, inspection);
          return { status: 'STAGED', accessKey: key, inboundId: null, cteId: cte.id, problemCode: null, message: 'CT-e staged (RECEIVED)' };
        } catch (err) {
          // The same key staged at this moment by stage-xml or another batch: theirs is committed now.
          const theirs = isUniqueViolation(err) ? await findCteByKey(readerOf(ctx), ctx.companyId, key) : null;
          if (!theirs) throw err;
          return {
            status: 'DUPLICATE',
            accessKey: key,
            inboundId: null,
            cteId: theirs.id,
            problemCode: null,
            message: `CT-e already stored (${theirs.status})`,
          };
        }
      },
    };
  },
};
