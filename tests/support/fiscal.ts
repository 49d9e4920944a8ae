import { UF_IBGE_CODES } from '../../src/core/br-fiscal';
import { dataSource } from '../../src/core/db/data-source';
import { Dec, DecimalInput } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { FiscalOperationRule } from '../../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { TaxGroup } from '../../src/modules/fiscal/entities/tax-group.entity';
import type { FiscalDestination, FiscalOperation } from '../../src/modules/fiscal/fiscal-document';
import { Filial, TaxRegime } from '../../src/modules/tenancy/entities/filial.entity';
import { randomCnpj, TestTenant } from './tenant';
import { fiscalDataChanged } from '../../src/modules/fiscal';

/*
 * Fiscal data for a test tenant (issue 29): the filial's address/IE/CRT, a default tax group with
 * SALE/RETURN/TRANSFER/BONUS rules for internal and interstate destinations (contributor or not), and
 * fiscal data on given products and customers — enough for computeFiscalDocument and the emission
 * path to issue documents. Keep this signature stable: other modules' tests call it.
 */

/** A valid IE and the capital's IBGE code per UF (the IEs pass the UF's check digits where implemented). */
export const UF_SAMPLES: Record<string, { ie: string; municipalityCode: string; municipalityName: string; postalCode: string }> = {
  SP: { ie: '110042490114', municipalityCode: '3550308', municipalityName: 'São Paulo', postalCode: '01310100' },
  MG: { ie: '0623079040081', municipalityCode: '3106200', municipalityName: 'Belo Horizonte', postalCode: '30130010' },
  RJ: { ie: '12345674', municipalityCode: '3304557', municipalityName: 'Rio de Janeiro', postalCode: '20040002' },
  PR: { ie: '1234567850', municipalityCode: '4106902', municipalityName: 'Curitiba', postalCode: '80010000' },
  RS: { ie: '2243658792', municipalityCode: '4314902', municipalityName: 'Porto Alegre', postalCode: '90010000' },
  SC: { ie: '251040852', municipalityCode: '4205407', municipalityName: 'Florianópolis', postalCode: '88010000' },
  BA: { ie: '12345663', municipalityCode: '2927408', municipalityName: 'Salvador', postalCode: '40020000' },
  GO: { ie: '109876547', municipalityCode: '5208707', municipalityName: 'Goiânia', postalCode: '74003010' },
  PE: { ie: '032141840', municipalityCode: '2611606', municipalityName: 'Recife', postalCode: '50010000' },
  ES: { ie: '082560211', municipalityCode: '3205309', municipalityName: 'Vitória', postalCode: '29010000' },
};

export interface FiscalProductOptions {
  id: number;
  ncm?: string;
  origin?: number;
  cest?: string | null;
  taxGroupId?: number;
}

export interface FiscalCustomerOptions {
  id: number;
  uf?: string;
  /** true → indIEDest 1 with a valid IE of the UF; false (default) → 9. */
  contributor?: boolean;
  personType?: 'PF' | 'PJ' | 'FOREIGN';
  document?: string;
}

export interface FiscalSetupOptions {
  /** Filiais to configure (indexes); default every filial of the tenant. */
  filiais?: number[];
  regime?: TaxRegime;
  industrial?: boolean;
  /** pCredSN of a Simples filial (default 1.25). */
  simplesCreditRate?: DecimalInput;
  /** IPI rate of the default group's rules when the filial is industrial (CST 50; 0 → CST 53). */
  ipiRate?: DecimalInput;
  products?: (number | FiscalProductOptions)[];
  customers?: (number | FiscalCustomerOptions)[];
  /** Valid-from of the rules (default 2000-01-01). */
  validFrom?: string;
}

export interface FiscalSetup {
  taxGroupId: number;
  taxGroupHash: string;
  ruleIds: number[];
}

const CFOPS: Record<FiscalOperation, Record<Exclude<FiscalDestination, 'ABROAD'>, [string, string]>> = {
  // [contributor, non-contributor]
  SALE: { INTERNAL: ['5102', '5102'], INTERSTATE: ['6102', '6108'] },
  RETURN: { INTERNAL: ['1202', '1202'], INTERSTATE: ['2202', '2202'] },
  TRANSFER: { INTERNAL: ['5152', '5152'], INTERSTATE: ['6152', '6152'] },
  BONUS: { INTERNAL: ['5910', '5910'], INTERSTATE: ['6910', '6910'] },
};

let seq = 0;
const UF_IBGE = (uf: string) => UF_IBGE_CODES[uf] ?? '35';

/** Gives the tenant's filiais, products and customers the fiscal data the tax engine needs. */
export async function setupFiscalData(tenant: TestTenant, options: FiscalSetupOptions = {}): Promise<FiscalSetup> {
  const em = dataSource.manager;
  const companyId = tenant.companyId;
  const filialIds = (options.filiais ?? tenant.filialIds.map((_id, i) => i)).map((i) => tenant.filialIds[i]);
  for (const id of filialIds) {
    const filial = await em.findOneByOrFail(Filial, { id, companyId });
    const sample = UF_SAMPLES[filial.uf] ?? UF_SAMPLES.SP;
    await em.update(
      Filial,
      { id, companyId },
      {
        taxRegime: options.regime ?? 'LUCRO_REAL',
        stateRegistration: filial.stateRegistration ?? sample.ie,
        tradeName: filial.name,
        addressStreet: 'Avenida Paulista',
        addressNumber: '1000',
        addressComplement: null,
        addressDistrict: 'Centro',
        municipalityCode: sample.municipalityCode,
        municipalityName: sample.municipalityName,
        postalCode: sample.postalCode,
        phone: '1133334444',
        cnae: '4751201',
        industrial: options.industrial ?? false,
        simplesExcessSublimit: false,
        simplesCreditRate: new Dec(String(options.simplesCreditRate ?? '1.25')),
      },
    );
  }
  const group = await em.save(
    em.create(TaxGroup, { companyId, code: `REVENDA${seq++ || ''}`, name: 'Revenda de mercadorias', active: true }),
  );
  const ipiRate = options.ipiRate !== undefined ? new Dec(String(options.ipiRate)) : null;
  const rules: Partial<FiscalOperationRule>[] = [];
  for (const operation of Object.keys(CFOPS) as FiscalOperation[]) {
    for (const destination of ['INTERNAL', 'INTERSTATE'] as const) {
      for (const contributor of [true, false]) {
        const cfop = CFOPS[operation][destination][contributor ? 0 : 1];
        const transfer = operation === 'TRANSFER';
        rules.push({
          companyId,
          taxGroupId: group.id,
          operation,
          destination,
          contributor,
          validFrom: options.validFrom ?? '2000-01-01',
          validTo: null,
          cfop,
          operationNature: null,
          icmsCst: transfer ? '41' : '00',
          csosn: transfer ? '400' : contributor ? '101' : '102',
          icmsBaseReduction: null,
          icmsRate: null,
          stMode: 'NONE',
          stMva: null,
          stBaseReduction: null,
          pisCst: null,
          pisRate: null,
          cofinsCst: null,
          cofinsRate: null,
          ipiCst: ipiRate && ipiRate.gt(0) ? '50' : '53',
          ipiRate,
          ipiEnquadramento: '999',
          ibsCbsCst: null,
          ibsCbsClass: null,
          active: true,
        });
      }
    }
  }
  const saved = await em.save(rules.map((r) => em.create(FiscalOperationRule, r)));
  await fiscalDataChanged(em, companyId);
  for (const p of options.products ?? []) {
    const o: FiscalProductOptions = typeof p === 'number' ? { id: p } : p;
    const current = await em.findOneByOrFail(Product, { id: o.id, companyId });
    await em.update(
      Product,
      { id: o.id, companyId },
      {
        ncm: o.ncm ?? current.ncm ?? '61091000',
        origin: o.origin ?? 0,
        ...(o.cest !== undefined ? { cest: o.cest } : {}),
        taxGroupId: o.taxGroupId ?? group.id,
      },
    );
  }
  for (const c of options.customers ?? []) {
    const o: FiscalCustomerOptions = typeof c === 'number' ? { id: c } : c;
    const uf = o.uf ?? 'SP';
    const sample = UF_SAMPLES[uf] ?? { ...UF_SAMPLES.SP, municipalityCode: '' };
    const current = await em.findOneByOrFail(Customer, { id: o.id, companyId });
    const personType = o.personType ?? (o.contributor ? 'PJ' : 'PF');
    await em.update(
      Customer,
      { id: o.id, companyId },
      {
        personType,
        document: o.document ?? current.document ?? (personType === 'PJ' ? randomCnpj() : '52998224725'),
        ieIndicator: o.contributor ? 1 : 9,
        stateRegistration: o.contributor ? sample.ie : null,
        addressStreet: 'Rua das Flores',
        addressNumber: '100',
        addressComplement: null,
        addressDistrict: 'Centro',
        municipalityCode: sample.municipalityCode || `${UF_IBGE(uf)}00000`,
        municipalityName: sample.municipalityName,
        uf,
        postalCode: sample.postalCode,
        email: current.email ?? 'compras@example.com.br',
      },
    );
  }
  return { taxGroupId: group.id, taxGroupHash: encodeId('tax-group', group.id), ruleIds: saved.map((r) => r.id) };
}
