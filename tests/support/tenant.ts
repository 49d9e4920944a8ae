import { signToken } from '../../src/core/auth/jwt';
import { cnpjWithCheckDigits, cpfWithCheckDigits } from '../../src/core/br-documents';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { createTenant } from '../../src/modules/tenancy/tenant.service';

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
export const randomCnpj = () => cnpjWithCheckDigits(digits(8) + '0001');
export const randomCpf = () => cpfWithCheckDigits(`${1 + Math.floor(Math.random() * 8)}${digits(8)}`);

export interface TestTenant {
  companyId: number;
  companyHash: string;
  filialIds: number[];
  filialHashes: string[];
  token: string;
  /** Headers for a call governed by filial `i` (default the first). */
  headers: (filialIndex?: number) => Record<string, string>;
  /** Headers with a token of other claims (scope, filiais, ttl). */
  headersWith: (
    claims: { scope?: string; filiais?: string[]; ttl?: string | number; sub?: string },
    filialIndex?: number,
  ) => Record<string, string>;
  ctx: { companyId: number; actor: string; requestId?: string };
}

/** A fresh company with `filiais` branches and an all-scopes token: every test file gets its own tenant. */
export async function createTestTenant(
  opts: { filiais?: number; allowNegativeStock?: boolean; environment?: 'PRODUCTION' | 'HOMOLOGATION' } = {},
): Promise<TestTenant> {
  const cnpj = randomCnpj();
  const { company, filiais } = await createTenant({
    name: `Test Company ${cnpj}`,
    cnpj,
    filiais: Array.from({ length: opts.filiais ?? 2 }, (_v, i) => ({
      name: `Filial ${i + 1}`,
      cnpj: i === 0 ? cnpj : randomCnpj(),
      uf: 'SP',
      nfeEnvironment: opts.environment ?? 'PRODUCTION',
      allowNegativeStock: opts.allowNegativeStock ?? false,
    })),
  });
  const companyHash = encodeId('company', company.id);
  const filialHashes = filiais.map((f) => encodeId('filial', f.id));
  const tokenFor = (claims: { scope?: string; filiais?: string[]; ttl?: string | number; sub?: string } = {}) =>
    signToken(
      { sub: claims.sub ?? 'test-user', companyId: companyHash, filiais: claims.filiais ?? ['*'], scope: claims.scope ?? '*' },
      claims.ttl ?? '1h',
    );
  const token = tokenFor();
  const headersFor = (tok: string, i = 0) => ({
    Authorization: `Bearer ${tok}`,
    'x-company-id': companyHash,
    'x-filial-id': filialHashes[i],
  });
  return {
    companyId: company.id,
    companyHash,
    filialIds: filiais.map((f) => f.id),
    filialHashes,
    token,
    headers: (i = 0) => headersFor(token, i),
    headersWith: (claims, i = 0) => headersFor(tokenFor(claims), i),
    ctx: { companyId: company.id, actor: 'test-user' },
  };
}

export async function setFilialOptions(
  tenant: TestTenant,
  index: number,
  patch: Partial<Pick<Filial, 'allowNegativeStock' | 'autoCiencia' | 'nfeEnvironment'>>,
) {
  await dataSource.manager.update(Filial, { id: tenant.filialIds[index], companyId: tenant.companyId }, patch);
}
