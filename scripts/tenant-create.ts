// npm run tenant:create -- --name "<company>" --cnpj <cnpj> --filial "<name>:<cnpj>:<uf>" [--filial ...]
import { createTenant, parseFilialSpec, tenantSummary } from '../src/modules/tenancy/tenant.service';
import { fail, parseArgs, withDatabase } from './cli';

const args = parseArgs();
if (!args.name?.[0] || !args.cnpj?.[0] || !args.filial?.length) {
  fail('usage: npm run tenant:create -- --name "<company>" --cnpj <cnpj> --filial "<name>:<cnpj>:<uf>" [--filial ...]');
}
withDatabase(async () => {
  const { company, filiais } = await createTenant({ name: args.name[0], cnpj: args.cnpj[0], filiais: args.filial.map(parseFilialSpec) });
  console.log(JSON.stringify(tenantSummary(company, filiais)));
}).catch((err) => fail(err.message));
