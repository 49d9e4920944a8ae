/*
 * The inbound NF-e module's front door (SPEC §2-§4): the stored inbound documents and their events,
 * the batch upload's handler registry, the link entry documents use, and the HTTP contract pieces other
 * modules' responses reuse. The fiscal-XML core (access key, the NF-e reader, signature) is the fiscal-xml
 * module's, the DANFE layout the danfe module's. Everything else in src/modules/inbound-nfe is private (docs/architecture.md,
 * "Module seams").
 */
export { invalid, invalidFromError, registerBatchHandler } from './batch/batch-handlers';
export type { BatchDocumentHandler } from './batch/batch-handlers';
export { NfeInbound } from './entities/nfe-inbound.entity';
export type { Manifestation } from './entities/nfe-inbound.entity';
export { inboundNfeLink } from './entry-document-link';
export {
  assertImportable,
  AUDIT_ENTITY,
  findByKeyInFilial,
  findFilialInbound,
  findInboundByKey,
  governingFilial,
  inboundByKeys,
  inboundEvents,
  insertInbound,
  insertInboundEvent,
  recipientOf,
  storedXml,
  updateInbound,
  upsertInbound,
} from './nfe-inbound.service';
export { summariesAwaitingCiencia } from './nfe-summaries.service';
export { nfeVolumeRoutes } from './nfe-volume.router';
export { toInboundEventData } from './nfe.events';
export { toInboundDto } from './nfe.mapper';
export { accessKey, freeForm, INBOUND_NOT_FOUND, NfeInbound as NfeInboundResponse, REPORT_BLOCKING, XML_READ } from './nfe.responses';
export { nfeRoutes } from './nfe.router';
export { documentDigest, recordAuthorityCheck } from './upload-trust';
export type { AuthorityAnswer } from './upload-trust';
export { compressXml, decompressXml, xmlSha256 } from './xml-storage';
export { inspectNfeXml } from './xml/inspect';
export type { NfeInspection } from './xml/inspect';
export { batchRunner } from './batch/batch-runner';
export { DeadlineTracker } from './deadlines/manifestation-deadlines.service';
export { receivedOfMonth, unmanifestedOfMonth } from './period-documents';
export type { MonthReceived } from './period-documents';
export { issuersOfKeys } from './book-parties';
