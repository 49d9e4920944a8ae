import { EntityManager, In } from 'typeorm';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { normalizeDocument } from '../../core/br-documents';
import { isUniqueViolation } from '../../core/db/db-errors';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { recordAudit } from '../../core/audit/audit.service';
import { systemContext, TenantContext } from '../../core/context';
import { Company } from './entities/company.entity';
import { Filial } from './entities/filial.entity';
import { validateSettings } from './settings.schemas';
import { assertUploadPolicy, filialColumns } from './settings.service';
import type { CompanySettingsPatch, FilialSettingsPatch } from './settings.service';

/** A filial to create with its settings and fiscal data (those left out take the columns' defaults). */
export interface FilialInput extends Omit<FilialSettingsPatch, 'stateRegistration'> {
  name: string;
  cnpj: string;
  uf: string;
  stateRegistration?: string | null;
}

/** The filial's row: document and UF checked, settings and fiscal data as PATCH /settings/filial writes them (IE and cMun against the UF: 400). */
function filialRow(companyId: number, f: FilialInput): Partial<Filial> {
  const cnpj = normalizeDocument(f.cnpj);
  if (!cnpj) throw new ValidationError(`Invalid filial CNPJ/CPF: ${f.cnpj}`, [{ path: 'cnpj', message: 'not a valid CNPJ or CPF' }]);
  const uf = f.uf.toUpperCase();
  if (!/^[A-Z]{2}$/.test(uf)) throw new ValidationError(`Invalid UF: ${f.uf}`, [{ path: 'uf', message: 'not a UF' }]);
  const { name, cnpj: _c, uf: _u, ...settings } = f;
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as FilialSettingsPatch;
  const nfeEnvironment = f.nfeEnvironment ?? 'PRODUCTION';
  assertUploadPolicy({ nfeEnvironment, allowUnverifiedUploads: f.allowUnverifiedUploads ?? false }, defined);
  return {
    companyId,
    name,
    cnpj,
    uf,
    stateRegistration: null,
    nfeEnvironment,
    allowNegativeStock: false,
    ...filialColumns({ uf }, defined),
  };
}

export interface TenantInput extends CompanySettingsPatch {
  name: string;
  cnpj: string;
  filiais: FilialInput[];
  /** Who creates it (the audit's actor): the operator's token subject, else "operator". */
  actor?: string;
}

/**
 * Parses the CLI's "--filial <name>:<cnpj>:<uf>[:<setting>=<value>…]" form; settings use the API's
 * names (nfeEnvironment=HOMOLOGATION:taxRegime=LUCRO_REAL) and win over `defaults` (the global flags).
 */
export function parseFilialSpec(spec: string, defaults: Record<string, unknown> = {}): FilialInput {
  const [name, cnpj, uf, ...rest] = spec.split(':');
  if (!name || !cnpj || !uf) throw new ValidationError(`--filial must be "<name>:<cnpj>:<uf>[:<setting>=<value>…]", got "${spec}"`);
  const own: Record<string, unknown> = {};
  for (const pair of rest) {
    const at = pair.indexOf('=');
    if (at < 1) throw new ValidationError(`--filial "${spec}": "${pair}" is not <setting>=<value>`);
    own[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const { stateRegistration, ...settings } = validateSettings<FilialSettingsPatch>('filial', { ...defaults, ...own }, `--filial ${name}`);
  return { name, cnpj, uf, ...settings, ...(stateRegistration ? { stateRegistration } : {}) };
}

/** Companies and filiais are created by operators (CLI), never by tenants' tokens. */
export async function createTenant(input: TenantInput, em?: EntityManager): Promise<{ company: Company; filiais: Filial[] }> {
  const cnpj = normalizeDocument(input.cnpj, 'cnpj');
  if (!cnpj) throw new ValidationError(`Invalid company CNPJ: ${input.cnpj}`);
  if (!input.filiais.length) throw new ValidationError('A company needs at least one filial');
  const filialRows = input.filiais.map((f) => filialRow(0, f));
  const docs = filialRows.map((f) => f.cnpj);
  if (new Set(docs).size !== docs.length)
    throw new ValidationError('Two filiais with the same CNPJ', [{ path: 'filiais', message: 'each filial has its own CNPJ' }]);
  const work = async (tx: EntityManager) => {
    if (await tx.existsBy(Company, { cnpj })) throw new ConflictError('COMPANY_EXISTS', `A company with CNPJ ${cnpj} already exists`);
    const tolerances = Object.fromEntries(
      (['purchaseQuantityTolerancePct', 'purchasePriceTolerancePct', 'purchaseToleranceMode'] as const)
        .filter((k) => input[k] !== undefined)
        .map((k) => [k, input[k]]),
    );
    const company = await tx.save(tx.create(Company, { name: input.name, cnpj, active: true, ...tolerances }));
    const filiais = await tx.save(filialRows.map((f) => tx.create(Filial, { ...f, companyId: company.id })));
    const actor = systemContext(company.id, input.actor ?? 'operator');
    await recordAudit(tx, actor, { entity: 'company', entityId: company.id, action: 'CREATED' });
    for (const f of filiais) await recordAudit(tx, actor, { entity: 'filial', entityId: f.id, action: 'CREATED' });
    return { company, filiais };
  };
  try {
    return await (em ? work(em) : inTransaction(NO_UNIT, work));
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError('COMPANY_EXISTS', `A company with CNPJ ${cnpj} already exists`);
    throw err;
  }
}

/** Adds a filial to an existing company (operators: POST /operator/companies/:companyId/filiais). */
export async function addFilial(companyId: number, input: FilialInput, actor = 'operator'): Promise<Filial> {
  const row = filialRow(companyId, input);
  return inTransaction(NO_UNIT, async (tx) => {
    if (!(await tx.existsBy(Company, { id: companyId }))) throw new NotFoundError('Company');
    if (await tx.existsBy(Filial, { companyId, cnpj: row.cnpj }))
      throw new ConflictError('FILIAL_EXISTS', `The company already has a filial with CNPJ ${row.cnpj}`);
    const filial = await tx.save(tx.create(Filial, row));
    await recordAudit(tx, systemContext(companyId, actor), { entity: 'filial', entityId: filial.id, action: 'CREATED' });
    return filial;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw new ConflictError('FILIAL_EXISTS', `The company already has a filial with CNPJ ${row.cnpj}`);
    throw err;
  });
}

/** A company with every filial (operators' view). */
export async function companyWithFiliais(companyId: number): Promise<{ company: Company; filiais: Filial[] }> {
  const em = readerOf(NO_UNIT);
  const company = await em.findOneBy(Company, { id: companyId });
  if (!company) throw new NotFoundError('Company');
  return { company, filiais: await em.find(Filial, { where: { companyId }, order: { id: 'ASC' } }) };
}

export const tenantSummary = (company: Company, filiais: Filial[]) => ({
  companyId: encodeId('company', company.id),
  filialIds: filiais.map((f) => encodeId('filial', f.id)),
});

/** The token's company and the active filiais it grants. */
export async function grantedTenant(ctx: TenantContext): Promise<{ company: Company; filiais: Filial[] }> {
  const em = readerOf(ctx);
  const company = await em.findOneBy(Company, { id: ctx.companyId });
  if (!company) throw new NotFoundError('Company');
  return { company, filiais: await findFiliais(company.id, ctx.grantedFiliais, em) };
}

export async function findFiliais(companyId: number, ids: number[] | '*', em: EntityManager): Promise<Filial[]> {
  const where = ids === '*' ? { companyId, active: true } : { companyId, active: true, id: In(ids.length ? ids : [0]) };
  return em.find(Filial, { where, order: { id: 'ASC' } });
}
