import { EntityManager, In } from 'typeorm';
import { inTransaction } from '../../core/db/transaction';
import { normalizeDocument } from '../../core/br-documents';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { recordAudit } from '../../core/audit/audit.service';
import { systemContext, TenantContext } from '../../core/context';
import { dataSource } from '../../core/db/data-source';
import { Company } from './entities/company.entity';
import { Filial, NfeEnvironment } from './entities/filial.entity';

export interface FilialInput {
  name: string;
  cnpj: string;
  uf: string;
  stateRegistration?: string;
  nfeEnvironment?: NfeEnvironment;
  allowNegativeStock?: boolean;
}

export interface TenantInput {
  name: string;
  cnpj: string;
  filiais: FilialInput[];
}

/** Parses the CLI's "--filial <name>:<cnpj>:<uf>" form. */
export function parseFilialSpec(spec: string): FilialInput {
  const [name, cnpj, uf] = spec.split(':');
  if (!name || !cnpj || !uf) throw new ValidationError(`--filial must be "<name>:<cnpj>:<uf>", got "${spec}"`);
  return { name, cnpj, uf };
}

/** Companies and filiais are created by operators (CLI), never by tenants' tokens. */
export async function createTenant(input: TenantInput, em?: EntityManager): Promise<{ company: Company; filiais: Filial[] }> {
  const cnpj = normalizeDocument(input.cnpj, 'cnpj');
  if (!cnpj) throw new ValidationError(`Invalid company CNPJ: ${input.cnpj}`);
  if (!input.filiais.length) throw new ValidationError('A company needs at least one filial');
  const filialRows = input.filiais.map((f) => {
    const doc = normalizeDocument(f.cnpj);
    if (!doc) throw new ValidationError(`Invalid filial CNPJ/CPF: ${f.cnpj}`);
    if (!/^[A-Z]{2}$/.test(f.uf.toUpperCase())) throw new ValidationError(`Invalid UF: ${f.uf}`);
    return { ...f, cnpj: doc, uf: f.uf.toUpperCase() };
  });
  const work = async (tx: EntityManager) => {
    if (await tx.existsBy(Company, { cnpj })) throw new ConflictError('COMPANY_EXISTS', `A company with CNPJ ${cnpj} already exists`);
    const company = await tx.save(tx.create(Company, { name: input.name, cnpj, active: true }));
    const filiais = await tx.save(
      filialRows.map((f) =>
        tx.create(Filial, {
          companyId: company.id,
          name: f.name,
          cnpj: f.cnpj,
          uf: f.uf,
          stateRegistration: f.stateRegistration ?? null,
          nfeEnvironment: f.nfeEnvironment ?? 'PRODUCTION',
          allowNegativeStock: f.allowNegativeStock ?? false,
        }),
      ),
    );
    await recordAudit(tx, systemContext(company.id, 'operator'), { entity: 'company', entityId: company.id, action: 'CREATED' });
    return { company, filiais };
  };
  return em ? work(em) : inTransaction(work);
}

export const tenantSummary = (company: Company, filiais: Filial[]) => ({
  companyId: encodeId('company', company.id),
  filialIds: filiais.map((f) => encodeId('filial', f.id)),
});

/** The token's company and the active filiais it grants. */
export async function grantedTenant(ctx: TenantContext): Promise<{ company: Company; filiais: Filial[] }> {
  const em = dataSource.manager;
  const company = await em.findOneBy(Company, { id: ctx.companyId });
  if (!company) throw new NotFoundError('Company');
  return { company, filiais: await findFiliais(company.id, ctx.grantedFiliais, em) };
}

export async function findFiliais(companyId: number, ids: number[] | '*', em: EntityManager): Promise<Filial[]> {
  const where = ids === '*' ? { companyId, active: true } : { companyId, active: true, id: In(ids.length ? ids : [0]) };
  return em.find(Filial, { where, order: { id: 'ASC' } });
}
