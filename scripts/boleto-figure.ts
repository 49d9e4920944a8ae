/*
 * Renders docs/figures/boleto.png: page 1 of a boleto PDF (Itaú 341, carteira 109, with its bolePix
 * QR) drawn by the module's own renderer from fixed input, rasterised by pdftoppm at 150 dpi (zbarimg reads both the barcode and the QR off the PNG).
 * Deterministic: same input, same picture. Run: npx ts-node scripts/boleto-figure.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Dec } from '../src/core/decimal';
import { BANKS } from '../src/modules/collection/banks/banks';
import { boletoCode } from '../src/modules/collection/banks/barcode';
import { renderBoletoPdf, type BoletoPdfInput } from '../src/modules/collection/boleto-pdf';
import { bolePixTxid } from '../src/modules/collection/pix-charges.service';
import { staticBrCode } from '../src/modules/collection/pix-brcode';

async function main() {
  const account = {
    bankCode: '341',
    agency: '1234',
    agencyDigit: null,
    account: '12345',
    accountDigit: '1',
    carteira: '109',
    beneficiaryCode: null,
    instructions: 'Não receber após 30 dias do vencimento.',
  } as const;
  const nn = BANKS['341'].nossoNumero(account, 1234);
  const amount = new Dec('1530.90');
  const dueDate = '2026-03-10';
  const code = boletoCode('341', dueDate, amount, BANKS['341'].campoLivre(account, nn));
  const boleto = {
    bankCode: '341',
    nossoNumero: nn.number,
    nossoNumeroPrinted: nn.printed,
    documentNumber: '1042/1',
    amount,
    issueDate: '2026-02-08',
    dueDate,
    barcode: code.barcode,
    digitableLine: code.digitableLine,
    finePercent: new Dec('2.00'),
    interestPerDayPercent: new Dec('0.0333'),
    discountAmount: new Dec('0'),
    discountDate: null,
    protestDays: 5,
  };
  const pixCode = staticBrCode({
    key: 'cobranca@example.com',
    merchantName: 'Mercearia Boa Vista',
    merchantCity: 'Sao Paulo',
    postalCode: '01304001',
    amount,
    txid: bolePixTxid('341', nn.number),
  });
  const input = {
    boleto,
    account,
    beneficiary: { name: 'Mercearia Boa Vista Ltda', cnpj: '11222333000181' },
    payer: {
      name: 'Distribuidora Exemplo Ltda',
      document: '44555666000199',
      addressStreet: 'Rua das Flores',
      addressNumber: '100',
      addressDistrict: 'Centro',
      municipalityName: 'Campinas',
      uf: 'SP',
      postalCode: '13010000',
    },
    pixCode,
  } as unknown as BoletoPdfInput;
  const pdf = await renderBoletoPdf(input);
  const dir = mkdtempSync(path.join(tmpdir(), 'boleto-figure-'));
  try {
    writeFileSync(path.join(dir, 'b.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      '150',
      '-png',
      '-singlefile',
      '-f',
      '1',
      '-l',
      '1',
      '-y',
      '0',
      '-H',
      '1175',
      '-x',
      '0',
      '-W',
      '1240',
      path.join(dir, 'b.pdf'),
      path.join(dir, 'boleto'),
    ]);
    const out = path.join(__dirname, '..', 'docs', 'figures', 'boleto.png');
    renameSync(path.join(dir, 'boleto.png'), out);
    process.stdout.write(`${path.relative(process.cwd(), out)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
