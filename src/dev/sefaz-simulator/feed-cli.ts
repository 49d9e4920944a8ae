// npm run simulator:feed -- <command> [options]   (talks to the simulator's admin API)
import fs from 'node:fs';
import https from 'node:https';
import { fail, parseArgs } from '../../../scripts/cli';
import { INFO_FILE } from './info-file';

const USAGE = `usage: npm run simulator:feed -- <command> [--url https://… --token … --ca ca.pem]
  --file <nfeProc.xml> [--file …]            feed authorized NF-e XML (the recipient gets its summary)
  --generate <n> --cnpj <recipient> [--name "…"] [--uf SP] [--homologacao]
                                              issue n invoices from sample suppliers to the recipient
  --cancel <accessKey> [--reason "…"]        the issuer cancels (110111), distributed to the recipient
  --status --cnpj <recipient> [--homologacao] the recipient's stream: NSUs, position, waits, invoices
  --release-wait --cnpj <recipient> [--homologacao]
                                              lift the 1-hour rules of the stream ("an hour has passed")
Defaults for --url/--token/--ca come from ${INFO_FILE}, written by \`npm start\`.`;

interface Target {
  url: string;
  token: string;
  ca: string;
}

function target(args: Record<string, string[]>): Target {
  const saved = fs.existsSync(INFO_FILE)
    ? (JSON.parse(fs.readFileSync(INFO_FILE, 'utf8')) as { url: string; adminToken: string; caPem: string })
    : null;
  const url = args.url?.[0] ?? saved?.url;
  const token = args.token?.[0] ?? saved?.adminToken;
  const ca = args.ca ? fs.readFileSync(args.ca[0], 'utf8') : saved?.caPem;
  if (!url || !token || !ca) fail(`No simulator found: start the service (npm start) or pass --url, --token and --ca.\n\n${USAGE}`);
  return { url, token, ca };
}

function call(
  t: Target,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
  type = 'application/json',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${t.url}${path}`,
      {
        method,
        ca: t.ca,
        headers: {
          Authorization: `Bearer ${t.token}`,
          ...(body ? { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const args = parseArgs();
  const t = target(args);
  const tpAmb = args.homologacao ? '2' : '1';
  const show = (r: { status: number; body: string }) => {
    if (r.status >= 400) fail(`simulator answered ${r.status}: ${r.body}`);
    console.log(r.body);
  };
  if (args.file) {
    for (const file of args.file) show(await call(t, 'POST', '/admin/nfe', fs.readFileSync(file, 'utf8'), 'application/xml'));
  } else if (args.generate) {
    const cnpj = args.cnpj?.[0] ?? fail(USAGE);
    show(
      await call(
        t,
        'POST',
        '/admin/generate',
        JSON.stringify({
          recipient: cnpj,
          recipientName: args.name?.[0],
          recipientUf: args.uf?.[0],
          count: Number(args.generate[0]) || 1,
          tpAmb,
        }),
      ),
    );
  } else if (args.cancel) {
    show(await call(t, 'POST', '/admin/cancel', JSON.stringify({ accessKey: args.cancel[0], justification: args.reason?.[0] })));
  } else if (args.status) {
    show(await call(t, 'GET', `/admin/status?cnpj=${encodeURIComponent(args.cnpj?.[0] ?? fail(USAGE))}&tpAmb=${tpAmb}`));
  } else if (args['release-wait']) {
    show(await call(t, 'POST', '/admin/release-wait', JSON.stringify({ cnpj: args.cnpj?.[0] ?? fail(USAGE), tpAmb })));
  } else {
    fail(USAGE);
  }
}

main().catch((err) => fail(`simulator:feed failed: ${(err as Error).message}`));
