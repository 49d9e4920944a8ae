// npm run token -- --company <hashid> --filiais <hashid,...|*> --scope "<scopes>" --ttl 8h [--sub user] [--filial <hashid>]
// npm run token -- --operator [--ttl 1h] [--sub ana]   (a token of no company: POST /api/operator/companies …)
import { signToken } from '../src/core/auth/jwt';
import { dataSource } from '../src/core/db/data-source';
import { decodeId, encodeId } from '../src/core/hashids';
import { Filial } from '../src/modules/tenancy/entities/filial.entity';
import { fail, parseArgs, withDatabase } from './cli';

const args = parseArgs();
if (args.operator) {
  const token = signToken({ sub: args.sub?.[0] ?? 'operator', companyId: '*', filiais: ['*'], scope: 'operator' }, args.ttl?.[0] ?? '1h');
  console.log(token);
  console.log('');
  console.log(`-H "Authorization: Bearer ${token}"`);
  process.exit(0);
}
const company = args.company?.[0];
if (!company)
  fail('usage: npm run token -- --company <hashid> --filiais <hashid,...|*> --scope "<scopes>" --ttl 8h [--sub user] [--filial <hashid>]');
const filiais = (args.filiais?.[0] ?? '*')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const scope = args.scope?.[0] ?? '*';
const ttl = args.ttl?.[0] ?? '8h';
const sub = args.sub?.[0] ?? 'local-user';

/**
 * The filial for the x-filial-id header of the printed curl line: --filial, else the first granted
 * one, else (token for every filial) the company's first filial read from the database, so the line
 * works as pasted. Without a reachable database it says where the hashid goes.
 */
async function headerFilial(): Promise<string> {
  if (args.filial?.[0]) return args.filial[0];
  if (filiais[0] !== '*') return filiais[0];
  const companyId = decodeId('company', company!);
  if (companyId <= 0) return '<filial hashid>';
  try {
    return await withDatabase(async () => {
      const first = await dataSource.manager.findOne(Filial, { where: { companyId }, order: { id: 'ASC' } });
      return first ? encodeId('filial', first.id) : '<filial hashid>';
    });
  } catch {
    return '<filial hashid>';
  }
}

void (async () => {
  const token = signToken({ sub, companyId: company!, filiais, scope }, ttl);
  const filial = await headerFilial();
  console.log(token);
  console.log('');
  console.log(`-H "Authorization: Bearer ${token}" -H "x-company-id: ${company}" -H "x-filial-id: ${filial}"`);
})();
