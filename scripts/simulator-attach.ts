// npm run simulator:attach -- --company <hashid> --filial <hashid> [--filial …] [--keep-certificate] [--url … --token … --ca ca.pem]
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import { systemContext } from '../src/core/context';
import { NO_UNIT, readerOf } from '../src/core/db/transaction';
import { decodeId, encodeId } from '../src/core/hashids';
import { trustCertificateAuthority } from '../src/modules/fiscal-xml';
import { getCertificate, saveCertificate, setFilialEndpoint } from '../src/modules/sefaz';
import { DIST_PATH, EVENT_PATH } from '../src/dev/sefaz-simulator/simulator';
import { INFO_FILE } from '../src/dev/sefaz-simulator/info-file';
import { SIMULATOR_LABEL } from '../src/dev/sefaz-simulator/local-authority';
import { Filial } from '../src/modules/tenancy';
import { sefazConfig } from '../src/core/config/sefaz';
import { fail, parseArgs, withDatabase } from './cli';

/*
 * Development: a filial of one's own on the local simulator the running service started (npm start;
 * on MySQL with SEFAZ_SIMULATOR=true), as the demo's are — the same as POST
 * /api/settings/filial/:filialId/simulator. The simulator's address, admin token and CA come from
 * the file the service writes (data/sefaz-simulator.json). Unless --keep-certificate (or the filial
 * has one already), the simulator issues the filial an A1 of its CA.
 */
const USAGE = `usage: npm run simulator:attach -- --company <hashid> --filial <hashid> [--filial …] [--keep-certificate | --issue-certificate]
  [--url https://… --token … --ca ca.pem]   (default: ${INFO_FILE}, written by npm start)`;

const args = parseArgs();
const company = args.company?.[0];
if (!company || !args.filial?.length) fail(USAGE);
const saved = fs.existsSync(INFO_FILE)
  ? (JSON.parse(fs.readFileSync(INFO_FILE, 'utf8')) as { url: string; adminToken: string; caPem: string })
  : null;
const url = args.url?.[0] ?? saved?.url;
const token = args.token?.[0] ?? saved?.adminToken;
const ca = args.ca ? fs.readFileSync(args.ca[0], 'utf8') : saved?.caPem;
if (!url || !token || !ca)
  fail(
    `No simulator found: start the service (npm start; on MySQL with SEFAZ_SIMULATOR=true) or pass --url, --token and --ca.\n\n${USAGE}`,
  );

function issueA1(cnpj: string, name: string, password: string): Promise<string> {
  const body = JSON.stringify({ cnpj, name, password });
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${url}/admin/client-certificate`,
      {
        method: 'POST',
        ca,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`simulator answered ${res.statusCode}: ${text}`));
          else resolve((JSON.parse(text) as { pfx: string }).pfx);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

withDatabase(async () => {
  const companyId = decodeId('company', company);
  if (companyId <= 0) fail(`--company ${company} is not a company hashid`);
  // Certificates of the simulator's CA are trusted here as the service trusts them.
  trustCertificateAuthority(ca);
  const out: { filialId: string; url: string; certificateIssued: boolean }[] = [];
  for (const hash of args.filial) {
    const filial = await readerOf(NO_UNIT).findOneBy(Filial, { id: decodeId('filial', hash), companyId });
    if (!filial) fail(`--filial ${hash}: not a filial of company ${company}`);
    const has = await getCertificate(companyId, filial.id).then(
      () => true,
      () => false,
    );
    const issue = args['issue-certificate'] ? true : args['keep-certificate'] ? false : !has;
    const ctx = systemContext(companyId, 'simulator-attach');
    if (issue) {
      const password = crypto.randomBytes(12).toString('hex');
      const pfx = await issueA1(filial.cnpj, filial.name, password);
      await saveCertificate(ctx, filial.id, { pfx, password });
    }
    await setFilialEndpoint(companyId, filial.id, {
      distUrl: `${url}${DIST_PATH}`,
      eventUrl: `${url}${EVENT_PATH}`,
      caPem: ca,
      label: SIMULATOR_LABEL,
      waitSeconds: sefazConfig.simulator.waitMs / 1000,
    });
    out.push({ filialId: encodeId('filial', filial.id), url, certificateIssued: issue });
  }
  console.log(JSON.stringify(out));
}).catch((err) => fail(`simulator:attach failed: ${(err as Error).message}`));
