import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyToken } from '../../src/core/auth/jwt';
import Database from 'better-sqlite3';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { dataSource } from '../../src/core/db/data-source';
import { isSqlite } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { runToEnd } from '../support/child-server';
import { AuthoritySimulator } from '../../src/dev/sefaz-simulator/simulator';

const root = path.resolve(__dirname, '../..');

/**
 * Runs one of the package's CLIs the way an operator would (own process, own database connection),
 * waiting as long as it makes progress rather than a fixed time (tests/support/child-server.ts).
 */
async function cli(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const res = await runToEnd(process.execPath, ['-r', 'ts-node/register', path.join('scripts', script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  return { status: res.status, stdout: res.stdout.trim(), stderr: res.stderr.trim() };
}

describe('Operator CLIs (seed, tenant:create, token, check:stock)', function () {
  // Each CLI is waited for while it makes progress (runToEnd), not against the clock.
  this.timeout(0);
  // The embedded engine gets a file of its own (the suite's database is in memory); MySQL uses the suite's database.
  const file = path.join(os.tmpdir(), `cli-test-${process.pid}.sqlite`);
  const env: NodeJS.ProcessEnv = isSqlite
    ? { SQLITE_FILE: file, NODE_ENV: 'development', LOG_LEVEL: 'error' }
    : { NODE_ENV: 'development', LOG_LEVEL: 'error' };
  /** Reads what a CLI wrote: its own SQLite file, or the suite's MySQL database. */
  const query = async (sql: string, params: unknown[]): Promise<Record<string, unknown>[]> => {
    if (!isSqlite) return dataSource.query(sql, params);
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare(sql).all(...params) as Record<string, unknown>[];
    } finally {
      db.close();
    }
  };
  after(() => {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  });

  it('seed creates the demo tenant once and prints it as one JSON line', async () => {
    const first = await cli('seed.ts', [], env);
    expect(first.status, first.stderr).to.equal(0);
    const summary = JSON.parse(first.stdout);
    expect(summary).to.have.keys('companyId', 'filialIds', 'productIds', 'customerIds', 'sellerIds', 'supplierIds');
    expect(summary.filialIds).to.have.length(2);
    const again = await cli('seed.ts', [], env);
    expect(JSON.parse(again.stdout)).to.deep.equal(summary);
  });

  it('tenant:create makes a company with its filiais; invalid CNPJ is refused', async () => {
    const ok = await cli(
      'tenant-create.ts',
      [
        '--name',
        'Loja Nova',
        '--cnpj',
        '45.723.174/0001-10',
        '--filial',
        'Centro:45723174000110:RJ',
        '--filial',
        'Norte:45723174000200:RJ',
      ],
      env,
    );
    expect(ok.status, ok.stderr).to.equal(0);
    const created = JSON.parse(ok.stdout);
    expect(created.filialIds).to.have.length(2);
    const dup = await cli('tenant-create.ts', ['--name', 'Loja Nova', '--cnpj', '45723174000110', '--filial', 'X:45723174000110:RJ'], env);
    expect(dup.status).to.equal(1);
    const bad = await cli('tenant-create.ts', ['--name', 'X', '--cnpj', '11111111111111', '--filial', 'X:11111111111111:RJ'], env);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.match(/Invalid company CNPJ/);
  });

  it('tenant:create takes the settings the API changes: flags for every filial, per-filial segments, company tolerances', async () => {
    const cnpj = cnpjWithCheckDigits('918273640001');
    const second = cnpjWithCheckDigits('918273640002');
    const ok = await cli(
      'tenant-create.ts',
      [
        '--name',
        'Loja Homologação',
        '--cnpj',
        cnpj,
        '--filial',
        `Centro:${cnpj}:SP`,
        '--filial',
        `Norte:${second}:SP:nfeEnvironment=PRODUCTION:taxRegime=LUCRO_PRESUMIDO`,
        '--nfe-environment',
        'HOMOLOGATION',
        '--auto-ciencia',
        'false',
        '--tax-regime',
        'LUCRO_REAL',
        '--allow-negative-stock',
        'true',
        '--dfe-sync',
        'true',
        '--dfe-sync-interval',
        '90',
        '--purchase-quantity-tolerance',
        '5',
        '--purchase-price-tolerance',
        '1.5',
        '--purchase-tolerance-mode',
        'WARN',
      ],
      env,
    );
    expect(ok.status, ok.stderr).to.equal(0);
    const created = JSON.parse(ok.stdout);
    const ids = created.filialIds.map((h: string) => decodeId('filial', h));
    const rows = await query(
      `SELECT nfe_environment, auto_ciencia, tax_regime, allow_negative_stock, dfe_sync_enabled, dfe_sync_interval_minutes FROM filial WHERE id IN (?, ?) ORDER BY id`,
      ids,
    );
    expect(
      rows.map((r) => [
        r.nfe_environment,
        Number(r.auto_ciencia),
        r.tax_regime,
        Number(r.allow_negative_stock),
        Number(r.dfe_sync_enabled),
        Number(r.dfe_sync_interval_minutes),
      ]),
    ).to.deep.equal([
      ['HOMOLOGATION', 0, 'LUCRO_REAL', 1, 1, 90],
      ['PRODUCTION', 0, 'LUCRO_PRESUMIDO', 1, 1, 90],
    ]);
    const [company] = await query(
      'SELECT purchase_quantity_tolerance_pct AS q, purchase_price_tolerance_pct AS p, purchase_tolerance_mode AS m FROM company WHERE id = ?',
      [decodeId('company', created.companyId)],
    );
    expect([Number(company.q), Number(company.p), company.m]).to.deep.equal([5, 1.5, 'WARN']);

    const badInterval = await cli(
      'tenant-create.ts',
      [
        '--name',
        'X',
        '--cnpj',
        cnpjWithCheckDigits('918273650001'),
        '--filial',
        `X:${cnpjWithCheckDigits('918273650001')}:SP`,
        '--dfe-sync-interval',
        '30',
      ],
      env,
    );
    expect(badInterval.status).to.equal(1);
    expect(badInterval.stderr).to.match(/dfeSyncIntervalMinutes/);
    const badSegment = await cli(
      'tenant-create.ts',
      [
        '--name',
        'X',
        '--cnpj',
        cnpjWithCheckDigits('918273650001'),
        '--filial',
        `X:${cnpjWithCheckDigits('918273650001')}:SP:taxRegime=MEI`,
      ],
      env,
    );
    expect(badSegment.status).to.equal(1);
    expect(badSegment.stderr).to.match(/taxRegime/);
    const unknown = await cli(
      'tenant-create.ts',
      [
        '--name',
        'X',
        '--cnpj',
        cnpjWithCheckDigits('918273650001'),
        '--filial',
        `X:${cnpjWithCheckDigits('918273650001')}:SP`,
        '--regime',
        'X',
      ],
      env,
    );
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.match(/unknown option: --regime/);
  });

  it('tenant:create and token take alphanumeric CNPJs (any case, punctuated); a wrong check digit is refused', async () => {
    const ok = await cli(
      'tenant-create.ts',
      [
        '--name',
        'Loja Alfa',
        '--cnpj',
        '12.abc.345/01de-35',
        '--filial',
        'Centro:12ABC34501DE35:SC',
        '--filial',
        'Norte:AB12CD34000265:SC',
      ],
      env,
    );
    expect(ok.status, ok.stderr).to.equal(0);
    const created = JSON.parse(ok.stdout);
    expect(created.filialIds).to.have.length(2);
    // Stored upper case without separators: the same CNPJ written otherwise is the same company.
    const dup = await cli('tenant-create.ts', ['--name', 'Loja Alfa', '--cnpj', '12ABC34501DE35', '--filial', 'X:12ABC34501DE35:SC'], env);
    expect(dup.status).to.equal(1);
    expect(dup.stderr).to.match(/already exists/);
    const bad = await cli('tenant-create.ts', ['--name', 'X', '--cnpj', '12ABC34501DE36', '--filial', 'X:12ABC34501DE36:SC'], env);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.match(/Invalid company CNPJ/);
    const token = await cli(
      'token.ts',
      ['--company', created.companyId, '--filiais', created.filialIds.join(','), '--scope', 'nfe:read'],
      env,
    );
    expect(token.status, token.stderr).to.equal(0);
    expect(verifyToken(token.stdout.split('\n')[0]).filiais).to.deep.equal(created.filialIds);
  });

  it('token prints a JWT the service accepts, and the curl headers', async () => {
    const out = await cli(
      'token.ts',
      ['--company', 'AbCdEfGh', '--filiais', 'XyZw1234', '--scope', 'sales-order:read', '--ttl', '2h', '--sub', 'ana'],
      env,
    );
    expect(out.status, out.stderr).to.equal(0);
    const [token, , headers] = out.stdout.split('\n');
    const claims = verifyToken(token);
    expect(claims).to.include({ sub: 'ana', companyId: 'AbCdEfGh', scope: 'sales-order:read' });
    expect(claims.filiais).to.deep.equal(['XyZw1234']);
    expect(claims.exp - Math.floor(Date.now() / 1000)).to.be.within(7100, 7200);
    expect(headers).to.contain('x-company-id: AbCdEfGh').and.contain('x-filial-id: XyZw1234');
  });

  it("token for every filial ('*') puts the company's first filial in the curl line", async () => {
    const summary = JSON.parse((await cli('seed.ts', [], env)).stdout);
    const out = await cli('token.ts', ['--company', summary.companyId, '--filiais', '*'], env);
    expect(out.status, out.stderr).to.equal(0);
    const headers = out.stdout.split('\n')[2];
    expect(headers).to.contain(`x-company-id: ${summary.companyId}`).and.contain(`x-filial-id: ${summary.filialIds[0]}`);
  });

  it('ibpt:import loads a UF’s IBPT CSV for a company (Latin-1 as IBPT ships it); bad usage, a bad file or another company are refused', async () => {
    const cnpj = cnpjWithCheckDigits('736251490001');
    const made = await cli('tenant-create.ts', ['--name', 'Loja IBPT', '--cnpj', cnpj, '--filial', `Centro:${cnpj}:SP`], env);
    expect(made.status, made.stderr).to.equal(0);
    const { companyId } = JSON.parse(made.stdout);
    const file = path.join(os.tmpdir(), `ibpt-${process.pid}.csv`);
    const header =
      'codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte';
    const row = (ncm: string, desc: string) => `${ncm};;0;${desc};4.25;6.10;7.00;0.00;01/01/2026;31/12/2026;B7C8D9;26.2.B;IBPT`;
    fs.writeFileSync(
      file,
      Buffer.from(
        [
          header,
          row('10063021', 'Arroz semibranqueado ou branqueado, polido ou brunido, não parboilizado'),
          row('94036000', 'Móveis de madeira'),
        ].join('\r\n'),
        'latin1',
      ),
    );
    try {
      const ok = await cli('ibpt-import.ts', ['--company', companyId, '--uf', 'sp', file], env);
      expect(ok.status, ok.stderr).to.equal(0);
      expect(JSON.parse(ok.stdout)).to.deep.equal({
        uf: 'SP',
        rows: 2,
        tableVersion: '26.2.B',
        tableKey: 'B7C8D9',
        source: 'IBPT',
        validFrom: '2026-01-01',
        validTo: '2026-12-31',
      });
      const rows = await query('SELECT ncm, uf, table_key FROM fiscal_approximate_tax WHERE company_id = ? ORDER BY ncm', [
        decodeId('company', companyId),
      ]);
      expect(rows.map((r) => [r.ncm, r.uf, r.table_key])).to.deep.equal([
        ['10063021', 'SP', 'B7C8D9'],
        ['94036000', 'SP', 'B7C8D9'],
      ]);
      const usage = await cli('ibpt-import.ts', ['--company', companyId, file], env);
      expect([usage.status, usage.stderr]).to.deep.equal([1, 'usage: npm run ibpt:import -- --company <hashid> --uf <UF> <file.csv>']);
      fs.writeFileSync(file, `${header}\r\n10063021;;0;Arroz;x;6.10;7.00;0.00;01/01/2026;31/12/2026;B7C8D9;26.2.B;IBPT\r\n`);
      const bad = await cli('ibpt-import.ts', ['--company', companyId, '--uf', 'SP', file], env);
      expect(bad.status).to.equal(1);
      expect(bad.stderr).to.contain('csv:2');
      expect(
        (await query('SELECT COUNT(*) AS n FROM fiscal_approximate_tax WHERE company_id = ?', [decodeId('company', companyId)]))[0].n,
      ).to.satisfy((n: unknown) => Number(n) === 2);
      const nobody = await cli('ibpt-import.ts', ['--company', 'zzzzzzzz', '--uf', 'SP', file], env);
      expect([nobody.status, nobody.stderr]).to.deep.equal([1, '--company zzzzzzzz is not a company hashid']);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('check:stock passes on a consistent database', async () => {
    const out = await cli('check-stock.ts', [], env);
    expect(out.status, out.stderr).to.equal(0);
    expect(out.stdout).to.contain('every stock balance equals the sum of its movements');
  });

  it('token --operator mints a token of no company with the operator scope', async () => {
    const out = await cli('token.ts', ['--operator', '--sub', 'ops.ana'], env);
    expect(out.status, out.stderr).to.equal(0);
    const claims = verifyToken(out.stdout.split('\n')[0]);
    expect(claims).to.include({ sub: 'ops.ana', companyId: '*', scope: 'operator' });
  });

  it('simulator:attach points a filial of one’s own at a running simulator and issues it a certificate; without one it says how to start it', async () => {
    const created = JSON.parse(
      (
        await cli(
          'tenant-create.ts',
          [
            '--name',
            'Loja Própria',
            '--cnpj',
            cnpjWithCheckDigits('736251480001'),
            '--filial',
            `Centro:${cnpjWithCheckDigits('736251480001')}:SP:nfeEnvironment=HOMOLOGATION`,
          ],
          env,
        )
      ).stdout,
    );
    const sim = new AuthoritySimulator();
    const endpoints = await sim.start();
    const caFile = path.join(os.tmpdir(), `cli-test-ca-${process.pid}.pem`);
    fs.writeFileSync(caFile, endpoints.caPem);
    try {
      const missing = await cli(
        'simulator-attach.ts',
        ['--company', created.companyId, '--filial', created.filialIds[0], '--url', endpoints.url],
        env,
      );
      expect(missing.status).to.not.equal(0);
      expect(missing.stderr).to.contain('No simulator found');
      const out = await cli(
        'simulator-attach.ts',
        [
          '--company',
          created.companyId,
          '--filial',
          created.filialIds[0],
          '--url',
          endpoints.url,
          '--token',
          endpoints.adminToken,
          '--ca',
          caFile,
        ],
        env,
      );
      expect(out.status, out.stderr).to.equal(0);
      expect(JSON.parse(out.stdout)).to.deep.equal([{ filialId: created.filialIds[0], url: endpoints.url, certificateIssued: true }]);
      const filialId = decodeId('filial', created.filialIds[0]);
      const [endpoint] = await query('SELECT dist_url, label FROM sefaz_endpoint WHERE filial_id = ?', [filialId]);
      expect(endpoint).to.deep.equal({ dist_url: endpoints.distUrl, label: 'local simulator' });
      const [cert] = await query('SELECT issuer, trust FROM sefaz_certificate WHERE filial_id = ?', [filialId]);
      expect(cert.trust).to.equal('TRUSTED');
      expect(String(cert.issuer)).to.contain('Simulador SEFAZ');
    } finally {
      fs.rmSync(caFile, { force: true });
      await sim.stop();
    }
  });
});
