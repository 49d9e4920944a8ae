import { EntityManager, In } from 'typeorm';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { normalizeDocument } from '../../core/br-documents';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { recordAudit } from '../../core/audit/audit.service';
import { systemContext, TenantContext } from '../../core/context';
import { Company } from './entities/company.entity';
import { Filial } from './entities/filial.entity';
import { validateSettings } from './settings.schemas';
import type { CompanySettingsPatch, FilialSettingsPatch } from './settings.service';

/** A filial to create with its settings (those left out take the columns' defaults). */
export interface FilialInput extends Omit<FilialSettingsPatch, 'address' | 'stateRegistration'> {
  name: string;
  cnpj: string;
  uf: string;
  stateRegistration?: string;
}

export interface TenantInput extends CompanySettingsPatch {
  name: string;
  cnpj: string;
  filiais: FilialInput[];
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
  const { address: _address, stateRegistration, ...settings } = validateSettings<FilialSettingsPatch>('filial', { ...defaults, ...own }, `--filial ${name}`);
  return { name, cnpj, uf, ...settings, ...(stateRegistration ? { stateRegistration } : {}) };
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
    const tolerances = Object.fromEntries(
      (['purchaseQuantityTolerancePct', 'purchasePriceTolerancePct', 'purchaseToleranceMode'] as const).filter((k) => input[k] !== undefined).map((k) => [k, input[k]]),
    );
    const company = await tx.save(tx.create(Company, { name: input.name, cnpj, active: true, ...tolerances }));
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
          ...(f.autoCiencia !== undefined ? { autoCiencia: f.autoCiencia } : {}),
          ...(f.taxRegime !== undefined ? { taxRegime: f.taxRegime } : {}),
          ...(f.dfeSyncEnabled !== undefined ? { dfeSyncEnabled: f.dfeSyncEnabled } : {}),
          ...(f.dfeSyncIntervalMinutes !== undefined ? { dfeSyncIntervalMinutes: f.dfeSyncIntervalMinutes } : {}),
        }),
      ),
    );
    await recordAudit(tx, systemContext(company.id, 'operator'), { entity: 'company', entityId: company.id, action: 'CREATED' });
    return { company, filiais };
  };
  return em ? work(em) : inTransaction(NO_UNIT, work);
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
