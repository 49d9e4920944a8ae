import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import { Filial } from '../../tenancy';
import { rulesForCfops } from './cfop-rule.repository';
import type { FiscalContext } from './fiscal.types';

/** The filial's tax regime and CNPJ, and the company's CFOP rules for the issuer CFOPs of a document's lines. */
export async function loadFiscalContext(
  em: EntityManager,
  companyId: number,
  filialId: number,
  cfops: (string | null | undefined)[],
): Promise<FiscalContext> {
  const filiais = await em.find(Filial, { where: { companyId }, select: { id: true, cnpj: true, taxRegime: true } });
  const filial = filiais.find((f) => f.id === filialId);
  if (!filial) throw new NotFoundError('Filial');
  const rules = await rulesForCfops(
    em,
    companyId,
    cfops.filter((c): c is string => !!c),
  );
  return { taxRegime: filial.taxRegime, rules, filialDocument: filial.cnpj, companyDocuments: filiais.map((f) => f.cnpj) };
}
