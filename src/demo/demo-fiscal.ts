import type { EntityManager } from 'typeorm';
import { Customer, Product } from '../modules/catalog';
import type { FiscalDestination, FiscalOperation } from '../modules/fiscal';
import { FiscalOperationRule, fiscalDataChanged, TaxGroup } from '../modules/fiscal';
import { Dec } from '../core/decimal';
import type { Company } from '../modules/tenancy';
import { Filial } from '../modules/tenancy';

/*
 * The demo tenant bills out of the box (issue 29): filial addresses with IBGE codes and IEs, two tax
 * groups (goods for resale; drinks already taxed by ST, CFOP 5405 / CST 60 / CSOSN 500) with rules
 * for every operation and destination, products with NCM/origin/group, customers with addresses.
 * Once per company: a company that already has a tax group is left alone.
 */

const FILIAIS: Record<string, Partial<Filial>> = {
  'Matriz São Paulo': {
    addressStreet: 'Avenida Paulista',
    addressNumber: '1578',
    addressDistrict: 'Bela Vista',
    municipalityCode: '3550308',
    municipalityName: 'São Paulo',
    postalCode: '01310200',
    phone: '1133334444',
  },
  'Filial Campinas': {
    addressStreet: 'Rua Barão de Jaguara',
    addressNumber: '900',
    addressDistrict: 'Centro',
    municipalityCode: '3509502',
    municipalityName: 'Campinas',
    postalCode: '13015001',
    phone: '1932325050',
    stateRegistration: '244123457116',
  },
};

/** [operation, destination, contributor] → [CFOP, CST, CSOSN] of goods for resale (CST/CSOSN per the filial's regime). */
function resaleRule(operation: FiscalOperation, destination: FiscalDestination, contributor: boolean): [string, string, string] {
  const interstate = destination === 'INTERSTATE';
  switch (operation) {
    case 'SALE':
      return [interstate ? (contributor ? '6102' : '6108') : '5102', '00', contributor ? '101' : '102'];
    case 'RETURN':
      return [interstate ? '2202' : '1202', '00', '102'];
    case 'TRANSFER':
      return [interstate ? '6152' : '5152', '41', '400'];
    case 'BONUS':
      return [interstate ? '6910' : '5910', '00', '102'];
  }
}

export async function configureDemoFiscal(em: EntityManager, company: Company): Promise<void> {
  if (await em.existsBy(TaxGroup, { companyId: company.id })) return;
  for (const filial of await em.find(Filial, { where: { companyId: company.id } })) {
    const data = FILIAIS[filial.name];
    if (!data) continue;
    await em.update(
      Filial,
      { id: filial.id, companyId: company.id },
      { ...data, tradeName: filial.name, cnae: '4711302', simplesCreditRate: new Dec('1.36') },
    );
  }
  const [resale, st] = await em.save([
    em.create(TaxGroup, { companyId: company.id, code: 'REVENDA', name: 'Mercadorias para revenda', active: true }),
    em.create(TaxGroup, { companyId: company.id, code: 'BEBIDAS-ST', name: 'Bebidas com ICMS retido por ST', active: true }),
  ]);
  const rules: Partial<FiscalOperationRule>[] = [];
  for (const operation of ['SALE', 'RETURN', 'TRANSFER', 'BONUS'] as const) {
    for (const destination of ['INTERNAL', 'INTERSTATE'] as const) {
      for (const contributor of [true, false]) {
        const [cfop, icmsCst, csosn] = resaleRule(operation, destination, contributor);
        const common = {
          companyId: company.id,
          operation,
          destination,
          contributor,
          validFrom: '2000-01-01',
          validTo: null,
          active: true,
          ipiCst: '53',
          ipiEnquadramento: '999',
        };
        rules.push({ ...common, taxGroupId: resale.id, cfop, icmsCst, csosn, stMode: 'NONE' });
        // Drinks already taxed by ST (RICMS/SP art. 313-A ff.): inside SP sold with CFOP 5405, CST 60 / CSOSN 500.
        // stMode NONE: the demo's stock is an opening balance, no entry paid its ST, so there are no retained
        // figures to declare; a company that buys them with ST sets ALREADY_TAXED (tax-law-rows.md, row 8b).
        const stSale = operation === 'SALE' && destination === 'INTERNAL';
        rules.push({
          ...common,
          taxGroupId: st.id,
          cfop: stSale ? '5405' : cfop,
          icmsCst: stSale ? '60' : icmsCst,
          csosn: stSale ? '500' : csosn,
          stMode: 'NONE',
        });
      }
    }
  }
  await em.save(rules.map((r) => em.create(FiscalOperationRule, r)));
  await fiscalDataChanged(em, company.id);
  for (const p of await em.find(Product, { where: { companyId: company.id } })) {
    const drink = p.ncm === '22030000' || p.ncm === '22021000';
    await em.update(
      Product,
      { id: p.id, companyId: company.id },
      { origin: 0, taxGroupId: drink ? st.id : resale.id, ...(drink ? { cest: p.ncm === '22030000' ? '0302100' : '0300700' } : {}) },
    );
  }
  const address = {
    addressStreet: 'Rua Augusta',
    addressNumber: '1200',
    addressDistrict: 'Consolação',
    municipalityCode: '3550308',
    municipalityName: 'São Paulo',
    uf: 'SP',
    postalCode: '01304001',
  };
  await em.update(
    Customer,
    { companyId: company.id, name: 'Maria da Silva' },
    { ...address, personType: 'PF', ieIndicator: 9, email: 'maria.silva@example.com.br' },
  );
  await em.update(
    Customer,
    { companyId: company.id, name: 'Padaria Pão Quente Ltda' },
    {
      ...address,
      addressNumber: '88',
      personType: 'PJ',
      ieIndicator: 1,
      stateRegistration: '148765434109',
      email: 'compras@paoquente.example.com.br',
    },
  );
}
