import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { toFixed } from '../../core/decimal';
import type { Customer } from '../catalog';
import type { Filial } from '../tenancy';
import { BANKS } from './banks/banks';
import type { BankAccount } from './entities/bank-account.entity';
import type { Boleto } from './entities/boleto.entity';

/*
 * The boleto PDF (FEBRABAN "Especificações Técnicas para Confecção de Boleto de Pagamento"): the
 * recibo do pagador on top, a cut line, and the ficha de compensação with the bank's code, the
 * linha digitável, the beneficiary and payer, and the barcode as Interleaved 2 of 5 (the 44 digits)
 * at the foot. Bank scanners read the barcode; the test reads it back with zbarimg.
 */

const brl = (d: Boleto['amount']) =>
  toFixed(d, 'amount')
    .replace('.', ',')
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
const br = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const formatLine = (l: string) =>
  `${l.slice(0, 5)}.${l.slice(5, 10)} ${l.slice(10, 15)}.${l.slice(15, 21)} ${l.slice(21, 26)}.${l.slice(26, 32)} ${l[32]} ${l.slice(33)}`;
const doc14 = (d: string) =>
  d.length === 14
    ? `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
    : d.length === 11
      ? `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
      : d;

export interface BoletoPdfInput {
  boleto: Boleto;
  account: BankAccount;
  beneficiary: Filial;
  payer: Customer;
  /** The bolePix BR Code printed beside the ficha, when the account has a Pix key. */
  pixCode?: string | null;
}

export async function renderBoletoPdf(input: BoletoPdfInput): Promise<Buffer> {
  const { boleto, account, payer } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    info: { Title: `Boleto ${boleto.nossoNumeroPrinted}`, Subject: 'Boleto de pagamento', Creator: 'retail-backoffice' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // Interleaved 2 of 5 of the 44 digits, narrow bar ≈ 0.33 mm at 72 dpi scale 3, 13 mm tall.
  const barcode = await bwipjs.toBuffer({
    bcid: 'interleaved2of5',
    text: boleto.barcode,
    scale: 3,
    height: 13,
    includetext: false,
    includecheck: false,
  });
  const page: Page = {
    doc,
    input,
    bank: BANKS[account.bankCode],
    bankField: `${account.bankCode}-${bankDv(account.bankCode)}`,
    agencyCode: `${account.agency}${account.agencyDigit ? '-' + account.agencyDigit : ''} / ${account.beneficiaryCode ?? account.account + '-' + account.accountDigit}`,
    payerLine: `${payer.name} — ${payer.document ? doc14(payer.document) : ''}`,
    payerAddress: [payer.addressStreet, payer.addressNumber, payer.addressDistrict, payer.municipalityName, payer.uf, payer.postalCode]
      .filter(Boolean)
      .join(', '),
  };
  let y = drawPayerReceipt(page, 30);
  y = drawCutLine(page, y);
  y = drawFichaFields(page, y + 20);
  y = drawInstructions(page, y);
  y = drawFichaPayer(page, y);
  await drawBarcodeAndPix(page, y, barcode);
  doc.end();
  return finished;
}

const left = 30;
const width = 535;

/** The page being drawn, and what its sections print more than once. */
interface Page {
  doc: PDFKit.PDFDocument;
  input: BoletoPdfInput;
  bank: (typeof BANKS)[keyof typeof BANKS];
  bankField: string;
  agencyCode: string;
  payerLine: string;
  payerAddress: string;
}

/** A labelled field: the label small on top, the value bold at the foot. */
function box(
  { doc }: Page,
  x: number,
  y: number,
  w: number,
  h: number,
  label: string,
  value: string,
  opts: { align?: 'left' | 'right'; size?: number } = {},
) {
  doc.rect(x, y, w, h).lineWidth(0.5).stroke();
  doc
    .font('Helvetica')
    .fontSize(5.5)
    .text(label, x + 2, y + 1.5, { width: w - 4 });
  doc
    .font('Helvetica-Bold')
    .fontSize(opts.size ?? 8)
    .text(value, x + 2, y + h - 11, { width: w - 4, align: opts.align ?? 'left', lineBreak: false });
}

/** The bank's name and code, then the title (the ficha: the linha digitável). */
function header({ doc, bank, bankField, input }: Page, y: number, title: string) {
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(bank.name, left, y + 6, { width: 150 });
  doc
    .rect(left + 150, y, 60, 22)
    .lineWidth(1)
    .stroke();
  doc.fontSize(13).text(bankField, left + 150, y + 5, { width: 60, align: 'center' });
  doc
    .fontSize(title ? 9 : 11)
    .text(title || formatLine(input.boleto.digitableLine), left + 215, y + 7, { width: width - 215, align: 'right' });
}

/** Recibo do pagador. */
function drawPayerReceipt(page: Page, y: number): number {
  const { boleto, beneficiary } = page.input;
  header(page, y, 'Recibo do Pagador');
  y += 24;
  box(page, left, y, 300, 24, 'Beneficiário', `${beneficiary.name} — CNPJ ${doc14(beneficiary.cnpj)}`, { size: 7 });
  box(page, left + 300, y, 120, 24, 'Agência / Código do Beneficiário', page.agencyCode, { size: 7 });
  box(page, left + 420, y, 115, 24, 'Vencimento', br(boleto.dueDate), { align: 'right' });
  y += 24;
  box(page, left, y, 300, 24, 'Pagador', page.payerLine, { size: 7 });
  box(page, left + 300, y, 120, 24, 'Nosso Número', boleto.nossoNumeroPrinted, { size: 7 });
  box(page, left + 420, y, 115, 24, '(=) Valor do Documento', brl(boleto.amount), { align: 'right' });
  y += 24;
  box(page, left, y, 300, 24, 'Número do Documento', boleto.documentNumber);
  box(page, left + 300, y, 235, 24, 'Autenticação Mecânica', '');
  return y + 40;
}

function drawCutLine({ doc }: Page, y: number): number {
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .dash(3, { space: 3 })
    .stroke()
    .undash();
  doc
    .font('Helvetica')
    .fontSize(6)
    .text('Corte na linha pontilhada', left, y + 2, { width, align: 'right' });
  return y;
}

/** Ficha de compensação: the header and its rows of fields. */
function drawFichaFields(page: Page, y: number): number {
  const { boleto, account, beneficiary } = page.input;
  header(page, y, '');
  y += 24;
  box(page, left, y, 420, 24, 'Local de Pagamento', 'Pagável em qualquer banco até o vencimento', { size: 7 });
  box(page, left + 420, y, 115, 24, 'Vencimento', br(boleto.dueDate), { align: 'right' });
  y += 24;
  box(page, left, y, 420, 24, 'Beneficiário', `${beneficiary.name} — CNPJ ${doc14(beneficiary.cnpj)}`, { size: 7 });
  box(page, left + 420, y, 115, 24, 'Agência / Código do Beneficiário', page.agencyCode, { align: 'right', size: 7 });
  y += 24;
  box(page, left, y, 90, 24, 'Data do Documento', br(boleto.issueDate));
  box(page, left + 90, y, 110, 24, 'Número do Documento', boleto.documentNumber);
  box(page, left + 200, y, 60, 24, 'Espécie Doc.', 'DM');
  box(page, left + 260, y, 40, 24, 'Aceite', 'N');
  box(page, left + 300, y, 120, 24, 'Data Processamento', br(boleto.issueDate));
  box(page, left + 420, y, 115, 24, 'Nosso Número', boleto.nossoNumeroPrinted, { align: 'right', size: 7 });
  y += 24;
  box(page, left, y, 90, 24, 'Uso do Banco', '');
  box(page, left + 90, y, 60, 24, 'Carteira', account.carteira);
  box(page, left + 150, y, 50, 24, 'Espécie', 'R$');
  box(page, left + 200, y, 100, 24, 'Quantidade', '');
  box(page, left + 300, y, 120, 24, 'Valor', '');
  box(page, left + 420, y, 115, 24, '(=) Valor do Documento', brl(boleto.amount), { align: 'right' });
  return y + 24;
}

/** The beneficiary's instructions (fine, interest, discount, protest, the account's own) and the deduction fields. */
function drawInstructions(page: Page, y: number): number {
  const { doc } = page;
  const { boleto, account } = page.input;
  const instructions = [
    ...(boleto.finePercent.gt(0) ? [`Após o vencimento, multa de ${toFixed(boleto.finePercent, 2).replace('.', ',')} %.`] : []),
    ...(boleto.interestPerDayPercent.gt(0)
      ? [`Juros de mora de ${toFixed(boleto.interestPerDayPercent, 4).replace('.', ',')} % ao dia.`]
      : []),
    ...(boleto.discountAmount.gt(0) && boleto.discountDate
      ? [`Desconto de R$ ${brl(boleto.discountAmount)} até ${br(boleto.discountDate)}.`]
      : []),
    ...(boleto.protestDays ? [`Protestar após ${boleto.protestDays} dias corridos do vencimento.`] : []),
    ...(account.instructions ? account.instructions.split('\n') : []),
  ];
  doc.rect(left, y, 420, 96).lineWidth(0.5).stroke();
  doc
    .font('Helvetica')
    .fontSize(5.5)
    .text('Instruções (texto de responsabilidade do beneficiário)', left + 2, y + 1.5);
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .text(instructions.join('\n'), left + 4, y + 10, { width: 412, height: 84 });
  for (const [i, label] of [
    '(-) Desconto / Abatimento',
    '(-) Outras Deduções',
    '(+) Mora / Multa',
    '(+) Outros Acréscimos',
    '(=) Valor Cobrado',
  ].entries()) {
    box(page, left + 420, y + i * 19.2, 115, 19.2, label, '');
  }
  return y + 96;
}

function drawFichaPayer({ doc, payerLine, payerAddress }: Page, y: number): number {
  doc.rect(left, y, width, 34).lineWidth(0.5).stroke();
  doc
    .font('Helvetica')
    .fontSize(5.5)
    .text('Pagador', left + 2, y + 1.5);
  doc
    .font('Helvetica-Bold')
    .fontSize(7.5)
    .text(payerLine, left + 4, y + 9, { width: width - 8 });
  doc
    .font('Helvetica')
    .fontSize(7)
    .text(payerAddress, left + 4, y + 20, { width: width - 8 });
  return y + 38;
}

/** The foot: the barcode and, for a bolePix, the QR beside it. */
async function drawBarcodeAndPix({ doc, input }: Page, y: number, barcode: Buffer) {
  doc.font('Helvetica').fontSize(6).text('Autenticação Mecânica — Ficha de Compensação', left, y, { width, align: 'right' });
  // The barcode's quiet zone: at least 10 narrow bars each side, left-aligned at the margin.
  doc.image(barcode, left + 10, y + 10, { width: 103 * 2.83, height: 13 * 2.83 });
  if (input.pixCode) {
    // bolePix: the QR (BWIPP's default error correction M, 4-module quiet zone) at the ficha's right, clear of the barcode.
    const qr = await bwipjs.toBuffer({ bcid: 'qrcode', text: input.pixCode, scale: 4, paddingwidth: 4, paddingheight: 4 });
    const side = 105;
    doc.image(qr, left + width - side, y + 10, { width: side, height: side });
    doc
      .font('Helvetica-Bold')
      .fontSize(7)
      .text('Pague com Pix', left + width - side - 95, y + 14, { width: 90, align: 'right' });
    doc
      .font('Helvetica')
      .fontSize(6)
      .text('Leia o QR Code no app do seu banco. Pago por Pix ou pelo código de barras: uma vez só.', left + width - side - 95, y + 24, {
        width: 90,
        align: 'right',
      });
  }
}

/** The bank code's check digit printed beside it (módulo 11 of the three digits, FEBRABAN). */
function bankDv(code: string): string {
  return { '001': '9', '341': '7', '237': '2', '033': '7', '104': '0', '756': '0' }[code] ?? '0';
}
