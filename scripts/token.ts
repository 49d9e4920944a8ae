// npm run token -- --company <hashid> --filiais <hashid,...|*> --scope "<scopes>" --ttl 8h [--sub user]
import { signToken } from '../src/core/auth/jwt';
import { fail, parseArgs } from './cli';

const args = parseArgs();
const company = args.company?.[0];
if (!company) fail('usage: npm run token -- --company <hashid> --filiais <hashid,...|*> --scope "<scopes>" --ttl 8h [--sub user]');
const filiais = (args.filiais?.[0] ?? '*').split(',').map((s) => s.trim()).filter(Boolean);
const scope = args.scope?.[0] ?? '*';
const ttl = args.ttl?.[0] ?? '8h';
const sub = args.sub?.[0] ?? 'local-user';
const token = signToken({ sub, companyId: company, filiais, scope }, ttl);
const filial = filiais[0] === '*' ? '<filial hashid>' : filiais[0];
console.log(token);
console.log('');
console.log(`-H "Authorization: Bearer ${token}" -H "x-company-id: ${company}" -H "x-filial-id: ${filial}"`);
