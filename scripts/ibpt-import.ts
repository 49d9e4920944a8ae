// npm run ibpt:import -- --company <hashid> --uf SP TabelaIBPTaxSP26.1.A.csv
import fs from 'node:fs';
import { systemContext } from '../src/core/context';
import { NO_UNIT, readerOf } from '../src/core/db/transaction';
import { decodeId } from '../src/core/hashids';
import { loadApproximateTaxes } from '../src/modules/fiscal';
import { Company } from '../src/modules/tenancy';
import { fail, parseArgs, withDatabase } from './cli';

/*
 * Loads a UF's public IBPT table (Lei 12.741/2012) for a company from the CSV IBPT distributes — the
 * same as POST /api/fiscal/approximate-taxes?uf=SP with the file as text/csv: the company's table of
 * that UF is replaced in one transaction, audited, with its event. IBPT ships the file in ISO-8859-1:
 * read as UTF-8 when it is valid UTF-8, else as Latin-1.
 */
const USAGE = 'usage: npm run ibpt:import -- --company <hashid> --uf <UF> <file.csv>';

const argv = process.argv.slice(2);
const args = parseArgs(argv);
const files = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--') && !argv[i - 1].includes('=')));
const company = args.company?.[0];
const uf = args.uf?.[0]?.toUpperCase();
if (!company || !uf || files.length !== 1) fail(USAGE);
if (!fs.existsSync(files[0])) fail(`${files[0]}: no such file`);

const bytes = fs.readFileSync(files[0]);
const utf8 = bytes.toString('utf8');
const csv = utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8;

withDatabase(async () => {
  const companyId = decodeId('company', company);
  if (companyId <= 0 || !(await readerOf(NO_UNIT).findOneBy(Company, { id: companyId })))
    fail(`--company ${company} is not a company hashid`);
  const loaded = await loadApproximateTaxes(systemContext(companyId, 'ibpt-import'), { uf, csv });
  console.log(JSON.stringify(loaded));
}).catch((err: Error & { extensions?: { errors?: unknown } }) =>
  fail(`${err.message}${err.extensions?.errors ? ` ${JSON.stringify(err.extensions.errors)}` : ''}`),
);
