/*
 * The sefaz module's front door: a filial's connection to the authority (its certificate, its
 * endpoints, the log of its exchanges), DF-e events, and its routes, batch handler and gauges for the
 * composition root. The authority's web services themselves (SOAP, XML, signing, transport) are the
 * authority module's. Everything else in src/modules/sefaz is private (docs/architecture.md, "Module
 * seams").
 */
export { getCertificate, loadCredentials, loadFilial, saveCertificate } from './certificate/certificate.service';
export { announceExpiringCertificates, CertificateExpiryWatcher, daysLeft, registerCertificateMetrics } from './certificate/certificate-expiry';
export { toCertificateDto } from './sefaz.mapper';
export { Certificate as SefazCertificateResponse } from './sefaz.responses';
export { SefazCertificate } from './entities/sefaz-certificate.entity';
export type { Credentials } from './certificate/certificate.service';
export { cnpjOfCertificatePem, OID_ICP_CNPJ } from './certificate/pfx';
export { open, seal } from './certificate/sealed-box';
export { nfeEventBatchHandler } from './dfe-batch-events';
export { registerDfeScheduleMetrics } from './dfe-schedule.metrics';
export { rewindCursorPast } from './dfe-sync.service';
export { DEFAULT_AUTHORITY_SETTINGS, filialAuthoritySettings, overridesFor, saveAuthoritySettings } from './authority-settings';
export type { AuthoritySettingsInput, FilialAuthoritySettings, NfceContingencyPolicy, NfeContingencyPolicy, UrlOverride, UrlTarget } from './authority-settings';
export { authorityTarget, issuerTarget, setFilialEndpoint, tpAmbOf } from './sefaz-connection';
export { sefazRoutes } from './sefaz.router';
export { DfeScheduler } from './dfe-scheduler';
