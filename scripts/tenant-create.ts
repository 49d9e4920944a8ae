// npm run tenant:create -- --name "<company>" --cnpj <cnpj> --filial "<name>:<cnpj>:<uf>[:<setting>=<value>…]" [--filial ...] [settings]
import { validateSettings } from '../src/modules/tenancy/settings.schemas';
import type { CompanySettingsPatch } from '../src/modules/tenancy/settings.service';
import { createTenant, parseFilialSpec, tenantSummary } from '../src/modules/tenancy/tenant.service';
import { fail, parseArgs, withDatabase } from './cli';

/*
 * Settings are the API's (PATCH /settings/filial/:filialId and /settings/company), validated by the
 * same fields. Filial flags apply to every filial; a filial's own `:<setting>=<value>` segments win.
 */
const FILIAL_FLAGS: Record<string, string> = {
  'nfe-environment': 'nfeEnvironment',
  'auto-ciencia': 'autoCiencia',
  'tax-regime': 'taxRegime',
  'allow-negative-stock': 'allowNegativeStock',
  'dfe-sync': 'dfeSyncEnabled',
  'dfe-sync-interval': 'dfeSyncIntervalMinutes',
};
const COMPANY_FLAGS: Record<string, string> = {
  'purchase-quantity-tolerance': 'purchaseQuantityTolerancePct',
  'purchase-price-tolerance': 'purchasePriceTolerancePct',
  'purchase-tolerance-mode': 'purchaseToleranceMode',
};
const USAGE = `usage: npm run tenant:create -- --name "<company>" --cnpj <cnpj> --filial "<name>:<cnpj>:<uf>[:<setting>=<value>…]" [--filial ...]
  filial settings (every filial): ${Object.keys(FILIAL_FLAGS)
    .map((f) => `--${f}`)
    .join(' ')}
  company settings: ${Object.keys(COMPANY_FLAGS)
    .map((f) => `--${f}`)
    .join(' ')}
  per filial, with the API's names: --filial "Centro:<cnpj>:SP:nfeEnvironment=HOMOLOGATION:taxRegime=LUCRO_REAL"`;

const args = parseArgs();
if (!args.name?.[0] || !args.cnpj?.[0] || !args.filial?.length) fail(USAGE);
const unknown = Object.keys(args).filter((k) => !['name', 'cnpj', 'filial'].includes(k) && !FILIAL_FLAGS[k] && !COMPANY_FLAGS[k]);
if (unknown.length) fail(`unknown option${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => `--${k}`).join(', ')}\n${USAGE}`);
const pick = (flags: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(flags)
      .filter(([flag]) => args[flag])
      .map(([flag, field]) => [field, args[flag][0]]),
  );

withDatabase(async () => {
  const filialDefaults = pick(FILIAL_FLAGS);
  const company = validateSettings<CompanySettingsPatch>('company', pick(COMPANY_FLAGS), 'company settings');
  const filiais = args.filial.map((spec) => parseFilialSpec(spec, filialDefaults));
  const created = await createTenant({ name: args.name[0], cnpj: args.cnpj[0], filiais, ...company });
  console.log(JSON.stringify(tenantSummary(created.company, created.filiais)));
}).catch((err) => fail(err.message));
