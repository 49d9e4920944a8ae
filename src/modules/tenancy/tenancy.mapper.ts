import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { Company } from './entities/company.entity';
import type { Filial } from './entities/filial.entity';

const iso = (d: Date | string) => new Date(d).toISOString();

export const toFilialSettingsDto = (f: Filial) => ({
  filialId: encodeId('filial', f.id),
  name: f.name,
  cnpj: f.cnpj,
  uf: f.uf,
  nfeEnvironment: f.nfeEnvironment,
  autoCiencia: f.autoCiencia,
  allowUnverifiedUploads: f.allowUnverifiedUploads,
  taxRegime: f.taxRegime,
  allowNegativeStock: f.allowNegativeStock,
  dfeSyncEnabled: f.dfeSyncEnabled,
  dfeSyncIntervalMinutes: f.dfeSyncIntervalMinutes,
  stateRegistration: f.stateRegistration,
  tradeName: f.tradeName,
  address:
    f.municipalityCode === null
      ? null
      : {
          street: f.addressStreet,
          number: f.addressNumber,
          complement: f.addressComplement,
          district: f.addressDistrict,
          municipalityCode: f.municipalityCode,
          municipalityName: f.municipalityName,
          postalCode: f.postalCode,
          phone: f.phone,
        },
  cnae: f.cnae,
  crt: f.taxRegime === 'SIMPLES_NACIONAL' ? (f.simplesExcessSublimit ? 2 : 1) : 3,
  industrial: f.industrial,
  simplesExcessSublimit: f.simplesExcessSublimit,
  simplesCreditRate: toJsonNumber(f.simplesCreditRate, 'percent'),
  version: f.version,
  updatedAt: iso(f.updatedAt),
});

export const toCompanySettingsDto = (c: Company) => ({
  companyId: encodeId('company', c.id),
  name: c.name,
  cnpj: c.cnpj,
  purchaseQuantityTolerancePct: toJsonNumber(c.purchaseQuantityTolerancePct, 'percent'),
  purchasePriceTolerancePct: toJsonNumber(c.purchasePriceTolerancePct, 'percent'),
  purchaseToleranceMode: c.purchaseToleranceMode,
  version: c.version,
});

export const toOperatorCompanyDto = (c: Company, filiais: Filial[]) => ({
  companyId: encodeId('company', c.id),
  name: c.name,
  cnpj: c.cnpj,
  active: c.active,
  filiais: filiais.map(toFilialSettingsDto),
});
