/*
 * The sefaz module's front door: a filial's connection to the authority — its certificate, its
 * endpoints and authority settings (what emission needs: issuerTarget, credentials), the client of its
 * DF-e exchanges and their log — and its certificate routes. It knows no inbound document: the DF-e
 * business is the dfe module's (docs/decisions/dfe-on-the-inbound-side.md). The authority's web
 * services themselves (SOAP, XML, signing, transport) are the authority module's. Everything else in
 * src/modules/sefaz is private (docs/architecture.md, "Module seams").
 */
export { getCertificate, loadCredentials, loadFilial, saveCertificate } from './certificate/certificate.service';
export {
  announceExpiringCertificates,
  CertificateExpiryWatcher,
  daysLeft,
  registerCertificateMetrics,
} from './certificate/certificate-expiry';
export { toCertificateDto } from './sefaz.mapper';
export { Certificate as SefazCertificateResponse } from './sefaz.responses';
export { SefazCertificate } from './entities/sefaz-certificate.entity';
export { DfeLog } from './entities/dfe-log.entity';
export type { Credentials } from './certificate/certificate.service';
export { cnpjOfCertificatePem, OID_ICP_CNPJ } from './certificate/pfx';
export { open, seal } from './certificate/sealed-box';
export { DEFAULT_AUTHORITY_SETTINGS, filialAuthoritySettings, overridesFor, saveAuthoritySettings } from './authority-settings';
export type {
  AuthoritySettingsInput,
  FilialAuthoritySettings,
  NfceContingencyPolicy,
  NfeContingencyPolicy,
  UrlOverride,
  UrlTarget,
} from './authority-settings';
export { authorityTarget, clientFor, issuerTarget, setFilialEndpoint, tpAmbOf } from './sefaz-connection';
export { sefazRoutes } from './sefaz.router';
