import type { InboundNfeLink } from '../entry-document';
import { findInboundByKey, releaseImportedInbound } from './nfe-inbound.service';
import { toInboundDto } from './nfe.mapper';
import { confirmationChecks } from './upload-trust';

/** The NF-e side of entry documents' inbound port (entry-document.ports.ts), plugged in by src/modules/index.ts. */
export const inboundNfeLink: InboundNfeLink = {
  inboundOf: async (em, companyId, filialId, accessKey) => {
    const inbound = await findInboundByKey(em, companyId, filialId, accessKey);
    return inbound && toInboundDto(inbound);
  },
  releaseImported: (em, ctx, entryDocumentId, cause) => releaseImportedInbound(em, ctx, entryDocumentId, cause),
  confirmationChecks,
};
