import type { BatchDocumentHandler } from '../inbound-nfe';
import { findByKeyInFilial, invalid, invalidFromError } from '../inbound-nfe';
import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { NotFoundError } from '../../core/errors';
import { applyDocuments, emptySummary } from './dfe-ingest';
import { EventDocument, eventId, readDfeDocument, TP_CANCELAMENTO, verifyEnvelopedSignatures } from '../authority';
import { cnpjOfCertificatePem } from '../sefaz';

/*
 * NF-e events in a batch upload (procEventoNFe: cancellation, CC-e, manifestations): applied to the
 * filial's record of their key exactly as when they come from the DF-e distribution. An event is
 * taken only with the authority's registration (retEvento cStat 135/136) and a signature over its
 * infEvento that verifies; its NF-e must be known to the filial (from the feed, an upload, or the
 * same batch — NF-e files are staged first). Registered at the composition root (modules/index.ts).
 */

const TP_CCE = '110110';

function describe(ev: EventDocument): string {
  if (ev.eventType === TP_CANCELAMENTO) return 'Cancellation by the issuer applied: the record is CANCELLED';
  if (ev.eventType === TP_CCE) return `Correction letter (CC-e) ${ev.sequence} recorded`;
  return `Event ${ev.eventType} recorded`;
}

export const nfeEventBatchHandler: BatchDocumentHandler = {
  kind: 'EVENT',
  roots: ['procEventoNFe'],
  phase: 1,
  async prepare(xml, filial) {
    let ev;
    try {
      ev = readDfeDocument(xml);
    } catch (err) {
      return invalidFromError(err, 'NFE_EVENT_INVALID');
    }
    if (ev.kind !== 'procEventoNFe') return invalid('NFE_EVENT_INVALID', 'Not an NF-e event with its registration (procEventoNFe)');
    const key = ACCESS_KEY_PATTERN.test(ev.accessKey) ? ev.accessKey : null;
    if (!key || !/^\d{6}$/.test(ev.eventType)) return invalid('NFE_EVENT_INVALID', 'The event has no valid access key or event type', key);
    if (!['135', '136'].includes(ev.cStat ?? '')) {
      return invalid('NFE_EVENT_NOT_REGISTERED', `The authority did not register this event (cStat ${ev.cStat ?? 'missing'})`, key);
    }
    const id = eventId(ev.eventType, key, ev.sequence);
    let checks;
    try {
      checks = verifyEnvelopedSignatures(xml, 'infEvento');
    } catch (err) {
      return invalidFromError(err, 'NFE_EVENT_INVALID');
    }
    const own = checks.find((c) => c.id === id);
    if (!own?.valid) return invalid('NFE_EVENT_SIGNATURE_INVALID', own?.reason ?? `No signature over ${id}`, key);
    // The signer is the author the event names (same CNPJ root, as the authority requires).
    const signer = cnpjOfCertificatePem(own.certPem ?? '');
    if (!signer || !ev.authorDocument || signer.slice(0, 8) !== ev.authorDocument.slice(0, 8)) {
      return invalid(
        'NFE_EVENT_AUTHOR_MISMATCH',
        `The event is signed by ${signer ?? 'an unidentified certificate'}, not by its author ${ev.authorDocument ?? '(none)'}`,
        key,
      );
    }
    const doc = { ...ev, nsu: null, schema: 'procEventoNFe_v1.00.xsd' };
    return {
      accessKey: key,
      async apply(em, ctx) {
        const inbound = await findByKeyInFilial(em, ctx, filial.id, key).catch((err) => {
          if (err instanceof NotFoundError) return null;
          throw err;
        });
        if (!inbound)
          return invalid('NFE_EVENT_UNKNOWN_INVOICE', `The filial has no NF-e ${key} (stage the NF-e first, or in the same batch)`, key);
        // Issuer events (110xxx: cancellation, CC-e) come from the NF-e's issuer; the recipient's from the filial.
        const expected = ev.eventType.startsWith('110') ? inbound.issuerDocument : filial.cnpj;
        if (ev.authorDocument!.slice(0, 8) !== expected.slice(0, 8)) {
          return invalid(
            'NFE_EVENT_AUTHOR_MISMATCH',
            `Event ${ev.eventType} of ${key} must come from ${expected}, not ${ev.authorDocument}`,
            key,
          );
        }
        const summary = emptySummary();
        await applyDocuments(em, ctx, filial, [{ doc }], null, summary);
        if (!summary.events)
          return {
            status: 'DUPLICATE',
            accessKey: key,
            inboundId: inbound.id,
            problemCode: null,
            message: `Event ${ev.eventType} ${ev.sequence} already recorded`,
          };
        return { status: 'STAGED', accessKey: key, inboundId: inbound.id, problemCode: null, message: describe(ev) };
      },
    };
  },
};
