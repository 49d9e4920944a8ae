import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import type { NfeItem, ParsedNfe } from '../fiscal-xml';
import * as f from './danfe-format';

/*
 * The DANFE (portrait A4) of an authorized NF-e, drawn with pdfkit and a Code-128 barcode of the key
 * from bwip-js. Page 1: receipt stub, issuer / DANFE / key and barcode, nature and protocol, recipient,
 * invoices, tax totals, transport, the items that fit, additional information. Following pages repeat
 * the header block and continue the items. Items are measured first (wrapped code and description)
 * and each is assigned to exactly one page before anything is drawn, so none is dropped or repeated
 * at a page break — the pagination is a plain function (`paginateRows`) the tests check directly too.
 */

export interface DanfeInput {
  nfe: ParsedNfe;
  /** The record's status: a cancelled NF-e is stamped as such. */
  cancelled: boolean;
  /** The cancellation's protocol and time (dhRegEvento-like text), printed over each page of a cancelled NF-e. */
  cancellation?: { protocol: string | null; at: string | null };
  /** The issuer's logo (PNG or JPEG), printed in the issuer's box. */
  logo?: Buffer | null;
}

const PAGE = { width: 595.28, height: 841.89 };
const M = 18;
const W = PAGE.width - 2 * M;
const BOTTOM = PAGE.height - M;
const LABEL = 5;
const VALUE = 7;
const ITEM_FONT = 5.6;
const ITEM_PAD = 1.6;
const HEADER_H = 112;
const TABLE_HEAD_H = 16;

type Doc = PDFKit.PDFDocument;

interface Column {
  label: string;
  width: number;
  align: 'left' | 'right' | 'center';
  value: (i: NfeItem) => string;
}

const icmsCst = (i: NfeItem) => {
  const icms = i.taxes.icms;
  if (!icms) return '';
  return `${icms.origin ?? ''}${icms.cst ?? icms.csosn ?? ''}`;
};

const COLUMNS: Column[] = [
  { label: 'CÓDIGO', width: 52, align: 'left', value: (i) => i.code },
  {
    label: 'DESCRIÇÃO DO PRODUTO / SERVIÇO',
    width: 98,
    align: 'left',
    value: (i) => (i.additionalInfo ? `${i.description}\n${i.additionalInfo}` : i.description),
  },
  { label: 'NCM/SH', width: 36, align: 'center', value: (i) => i.ncm ?? '' },
  { label: 'O/CST', width: 24, align: 'center', value: icmsCst },
  { label: 'CFOP', width: 22, align: 'center', value: (i) => i.cfop },
  { label: 'UN', width: 20, align: 'center', value: (i) => i.unit },
  { label: 'QUANT.', width: 38, align: 'right', value: (i) => f.money(i.quantity, 4) },
  { label: 'VALOR UNIT.', width: 42, align: 'right', value: (i) => f.price(i.unitPrice) },
  { label: 'VALOR TOTAL', width: 42, align: 'right', value: (i) => f.money(i.total) },
  { label: 'V. DESC.', width: 30, align: 'right', value: (i) => f.money(i.discount) },
  { label: 'B.CÁLC. ICMS', width: 40, align: 'right', value: (i) => f.money(i.taxes.icms?.base) },
  { label: 'VALOR ICMS', width: 34, align: 'right', value: (i) => f.money(i.taxes.icms?.value) },
  { label: 'VALOR IPI', width: 30, align: 'right', value: (i) => f.money(i.taxes.ipi?.value) },
  { label: 'ALÍQ. ICMS', width: 25, align: 'right', value: (i) => f.money(i.taxes.icms?.rate) },
  { label: 'ALÍQ. IPI', width: 26, align: 'right', value: (i) => f.money(i.taxes.ipi?.rate) },
];

// ---- pagination ----

export interface MeasuredRow {
  index: number;
  height: number;
  cells: string[];
}

/**
 * Assigns rows to pages in order: page 1 has `firstCapacity` points for rows, the others
 * `nextCapacity`. Every row lands on exactly one page; a row taller than a whole page gets a page
 * of its own (clipped when drawn) rather than being dropped.
 */
export function paginateRows<T extends { height: number }>(rows: T[], firstCapacity: number, nextCapacity: number): T[][] {
  const pages: T[][] = [[]];
  let used = 0;
  for (const row of rows) {
    const capacity = pages.length === 1 ? firstCapacity : nextCapacity;
    const current = pages[pages.length - 1];
    if (current.length && used + row.height > capacity) {
      pages.push([row]);
      used = row.height;
    } else {
      current.push(row);
      used += row.height;
    }
  }
  return pages;
}

function measureRows(doc: Doc, items: NfeItem[]): MeasuredRow[] {
  doc.font('Helvetica').fontSize(ITEM_FONT);
  const line = doc.currentLineHeight();
  // Most cells fit on one line: only those that do not are wrapped and measured.
  const heightOf = (text: string, width: number) =>
    !text.includes('\n') && doc.widthOfString(text) <= width ? line : doc.heightOfString(text || ' ', { width, lineGap: 0 });
  return items.map((item, index) => {
    const cells = COLUMNS.map((c) => c.value(item));
    const height = Math.max(...cells.map((text, k) => heightOf(text, COLUMNS[k].width - 3))) + 2 * ITEM_PAD;
    return { index, height, cells };
  });
}

// ---- drawing helpers ----

function box(
  doc: Doc,
  x: number,
  y: number,
  w: number,
  h: number,
  label: string,
  value: string,
  opts: { align?: 'left' | 'right' | 'center'; bold?: boolean; size?: number } = {},
) {
  doc.lineWidth(0.5).rect(x, y, w, h).stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL)
    .fillColor('black')
    .text(label, x + 2, y + 1.5, { width: w - 4, lineBreak: false, height: LABEL + 1 });
  doc
    .font(opts.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(opts.size ?? VALUE)
    .text(value ?? '', x + 2, y + LABEL + 3, { width: w - 4, height: h - LABEL - 4, align: opts.align ?? 'left', ellipsis: true });
}

/** A row of boxes splitting the width in the given proportions. */
function boxRow(
  doc: Doc,
  y: number,
  h: number,
  cells: { label: string; value: string; width?: number; align?: 'left' | 'right' | 'center' }[],
) {
  const fixed = cells.reduce((n, c) => n + (c.width ?? 0), 0);
  const flexible = cells.filter((c) => c.width === undefined).length;
  let x = M;
  for (const c of cells) {
    const w = c.width ?? (W - fixed) / flexible;
    box(doc, x, y, w, h, c.label, c.value, { align: c.align });
    x += w;
  }
}

function section(doc: Doc, y: number, title: string): number {
  doc.font('Helvetica-Bold').fontSize(6).fillColor('black').text(title, M, y, { lineBreak: false });
  return y + 8;
}

const address = (p: ParsedNfe['issuer'] | null) => {
  const a = p?.address;
  if (!a) return '';
  return [a.street, a.number].filter(Boolean).join(', ');
};

function watermark(doc: Doc, text: string, dy = 0) {
  doc.save();
  doc.rotate(-35, { origin: [PAGE.width / 2, PAGE.height / 2] });
  doc.font('Helvetica-Bold').fontSize(54).fillColor('#b0b0b0').fillOpacity(0.35);
  doc.text(text, 0, PAGE.height / 2 - 30 + dy, { width: PAGE.width, align: 'center', lineBreak: false });
  doc.restore();
  doc.fillColor('black').fillOpacity(1);
}

// ---- blocks ----

function receiptStub(doc: Doc, nfe: ParsedNfe, y: number): number {
  const h = 44;
  const right = 110;
  const text =
    `RECEBEMOS DE ${nfe.issuer.name ?? ''} OS PRODUTOS E/OU SERVIÇOS CONSTANTES DA NOTA FISCAL ELETRÔNICA INDICADA AO LADO. ` +
    `EMISSÃO: ${f.date(nfe.ide.issuedAt)} VALOR TOTAL: R$ ${f.money(nfe.totals.invoice)} DESTINATÁRIO: ${nfe.recipient?.name ?? ''}`;
  doc
    .lineWidth(0.5)
    .rect(M, y, W - right, 20)
    .stroke();
  doc
    .font('Helvetica')
    .fontSize(5.5)
    .text(text, M + 2, y + 2, { width: W - right - 4, height: 17, ellipsis: true });
  box(doc, M, y + 20, 110, h - 20, 'DATA DE RECEBIMENTO', '');
  box(doc, M + 110, y + 20, W - right - 110, h - 20, 'IDENTIFICAÇÃO E ASSINATURA DO RECEBEDOR', '');
  doc.rect(M + W - right, y, right, h).stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .text('NF-e', M + W - right, y + 5, { width: right, align: 'center' });
  doc.fontSize(8).text(`Nº ${nfe.ide.number.padStart(9, '0').replace(/(\d{3})(\d{3})(\d{3})/, '$1.$2.$3')}`, M + W - right, y + 19, {
    width: right,
    align: 'center',
  });
  doc.text(`SÉRIE ${nfe.ide.series.padStart(3, '0')}`, M + W - right, y + 30, { width: right, align: 'center' });
  doc
    .dash(2, { space: 2 })
    .moveTo(M, y + h + 4)
    .lineTo(M + W, y + h + 4)
    .stroke()
    .undash();
  return y + h + 9;
}

function header(doc: Doc, nfe: ParsedNfe, y: number, page: number, pages: number, barcode: Buffer, logo?: Buffer | null): number {
  const issuerW = 225;
  const danfeW = 100;
  const keyW = W - issuerW - danfeW;
  const h = HEADER_H;
  // Issuer
  doc.lineWidth(0.5).rect(M, y, issuerW, h).stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL)
    .text('IDENTIFICAÇÃO DO EMITENTE', M + 2, y + 2, { lineBreak: false });
  // With a logo, it takes the box's left and the issuer's text the rest.
  const textX = logo ? M + 64 : M + 6;
  if (logo) doc.image(logo, M + 6, y + 12, { fit: [54, 54], align: 'center', valign: 'center' });
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .text(nfe.issuer.name ?? '', textX, y + 16, { width: issuerW - 6 - (textX - M), align: 'center', height: 34, ellipsis: true });
  const a = nfe.issuer.address;
  const lines = [
    address(nfe.issuer),
    [a?.district, a?.zipCode ? `CEP ${f.zip(a.zipCode)}` : null].filter(Boolean).join(' - '),
    [a?.city, a?.uf].filter(Boolean).join(' - '),
  ].filter(Boolean);
  doc
    .font('Helvetica')
    .fontSize(7)
    .text(lines.join('\n'), textX, y + 56, { width: issuerW - 6 - (textX - M), align: 'center', height: h - 60, ellipsis: true });
  // DANFE
  const dx = M + issuerW;
  doc.rect(dx, y, danfeW, h).stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .text('DANFE', dx, y + 5, { width: danfeW, align: 'center' });
  doc
    .font('Helvetica')
    .fontSize(6)
    .text('Documento Auxiliar da\nNota Fiscal Eletrônica', dx + 4, y + 22, { width: danfeW - 8, align: 'center' });
  doc.fontSize(6.5).text('0 - ENTRADA\n1 - SAÍDA', dx + 12, y + 44, { width: 50 });
  doc.rect(dx + 68, y + 44, 16, 16).stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .text(nfe.ide.operationType ?? '', dx + 68, y + 47, { width: 16, align: 'center' });
  doc.fontSize(8).text(`Nº ${nfe.ide.number.padStart(9, '0').replace(/(\d{3})(\d{3})(\d{3})/, '$1.$2.$3')}`, dx, y + 68, {
    width: danfeW,
    align: 'center',
  });
  doc.text(`SÉRIE ${nfe.ide.series.padStart(3, '0')}`, dx, y + 79, { width: danfeW, align: 'center' });
  doc.text(`FOLHA ${page}/${pages}`, dx, y + 92, { width: danfeW, align: 'center' });
  // Key and barcode
  const kx = dx + danfeW;
  doc.rect(kx, y, keyW, h).stroke();
  doc.image(barcode, kx + 8, y + 5, { width: keyW - 16, height: 34 });
  doc
    .moveTo(kx, y + 44)
    .lineTo(kx + keyW, y + 44)
    .stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL)
    .text('CHAVE DE ACESSO', kx + 2, y + 46, { lineBreak: false });
  doc
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(f.accessKey(nfe.accessKey), kx + 2, y + 54, { width: keyW - 4, align: 'center' });
  doc
    .moveTo(kx, y + 66)
    .lineTo(kx + keyW, y + 66)
    .stroke();
  doc
    .font('Helvetica')
    .fontSize(7)
    .text(
      'Consulta de autenticidade no portal nacional da NF-e www.nfe.fazenda.gov.br/portal ou no site da Sefaz Autorizadora',
      kx + 6,
      y + 74,
      { width: keyW - 12, align: 'center' },
    );
  return y + h;
}

function identification(doc: Doc, nfe: ParsedNfe, y: number): number {
  const p = nfe.protocol;
  boxRow(doc, y, 22, [
    { label: 'NATUREZA DA OPERAÇÃO', value: nfe.ide.operationNature ?? '', width: 325 },
    {
      label: 'PROTOCOLO DE AUTORIZAÇÃO DE USO',
      value: p?.protocolNumber ? `${p.protocolNumber} - ${f.date(p.receivedAt)} ${f.time(p.receivedAt)}` : '',
      align: 'center',
    },
  ]);
  boxRow(doc, y + 22, 22, [
    { label: 'INSCRIÇÃO ESTADUAL', value: nfe.issuer.stateRegistration ?? '' },
    { label: 'INSC. ESTADUAL DO SUBST. TRIBUTÁRIO', value: '' },
    { label: 'CNPJ / CPF', value: f.document(nfe.issuer.document) },
  ]);
  return y + 44;
}

function recipient(doc: Doc, nfe: ParsedNfe, y: number): number {
  const r = nfe.recipient;
  const a = r?.address;
  y = section(doc, y + 3, 'DESTINATÁRIO / REMETENTE');
  boxRow(doc, y, 22, [
    { label: 'NOME / RAZÃO SOCIAL', value: r?.name ?? '', width: 330 },
    { label: 'CNPJ / CPF', value: f.document(r?.document), width: 130 },
    { label: 'DATA DA EMISSÃO', value: f.date(nfe.ide.issuedAt), align: 'center' },
  ]);
  boxRow(doc, y + 22, 22, [
    { label: 'ENDEREÇO', value: address(r), width: 260 },
    { label: 'BAIRRO / DISTRITO', value: a?.district ?? '', width: 130 },
    { label: 'CEP', value: f.zip(a?.zipCode), width: 70 },
    { label: 'DATA DA SAÍDA / ENTRADA', value: f.date(nfe.ide.exitAt), align: 'center' },
  ]);
  boxRow(doc, y + 44, 22, [
    { label: 'MUNICÍPIO', value: a?.city ?? '', width: 230 },
    { label: 'UF', value: a?.uf ?? r?.uf ?? '', width: 30 },
    { label: 'FONE / FAX', value: '', width: 100 },
    { label: 'INSCRIÇÃO ESTADUAL', value: r?.stateRegistration ?? '', width: 100 },
    { label: 'HORA DA SAÍDA / ENTRADA', value: f.time(nfe.ide.exitAt), align: 'center' },
  ]);
  return y + 66;
}

function billing(doc: Doc, nfe: ParsedNfe, y: number): number {
  const dups = nfe.billing?.installments ?? [];
  const fat = nfe.billing?.invoice;
  if (!dups.length && !fat) return y;
  y = section(doc, y + 3, 'FATURA / DUPLICATAS');
  const perRow = 6;
  const cellW = W / perRow;
  const rows = Math.max(1, Math.ceil(dups.length / perRow));
  doc
    .lineWidth(0.5)
    .rect(M, y, W, rows * 22)
    .stroke();
  dups.forEach((d, i) => {
    const x = M + (i % perRow) * cellW;
    const cy = y + Math.floor(i / perRow) * 22;
    doc
      .font('Helvetica')
      .fontSize(6)
      .text(`Nº ${d.number ?? ''}   VENC. ${f.date(d.dueDate)}\nR$ ${f.money(d.amount)}`, x + 3, cy + 3, { width: cellW - 6, height: 18 });
  });
  if (!dups.length && fat) {
    doc
      .font('Helvetica')
      .fontSize(6.5)
      .text(
        `FATURA ${fat.number ?? ''}  VALOR ORIGINAL R$ ${f.money(fat.original)}  DESCONTO R$ ${f.money(fat.discount)}  VALOR LÍQUIDO R$ ${f.money(fat.net)}`,
        M + 3,
        y + 7,
        { width: W - 6 },
      );
  }
  return y + rows * 22;
}

function taxes(doc: Doc, nfe: ParsedNfe, y: number): number {
  const t = nfe.totals;
  y = section(doc, y + 3, 'CÁLCULO DO IMPOSTO');
  const r = (label: string, value: string) => ({ label, value, align: 'right' as const });
  boxRow(doc, y, 22, [
    r('BASE DE CÁLC. DO ICMS', f.money(t.icmsBase)),
    r('VALOR DO ICMS', f.money(t.icms)),
    r('BASE DE CÁLC. ICMS S.T.', f.money(t.icmsStBase)),
    r('VALOR DO ICMS SUBST.', f.money(t.icmsSt)),
    r('V. ICMS UF REMET.', f.money(t.icmsUfRemet)),
    r('V. FCP UF DEST.', f.money(t.fcpUfDest)),
    r('VALOR DO PIS', f.money(t.pis)),
    r('V. TOTAL PRODUTOS', f.money(t.products)),
  ]);
  // V. ICMS UF DEST. (EC 87/2015) and V. TOT. TRIB. (Lei 12.741) are the boxes accountants look for.
  boxRow(doc, y + 22, 22, [
    r('VALOR DO FRETE', f.money(t.freight)),
    r('VALOR DO SEGURO', f.money(t.insurance)),
    r('DESCONTO', f.money(t.discount)),
    r('OUTRAS DESPESAS', f.money(t.otherExpenses)),
    r('VALOR TOTAL IPI', f.money(t.ipi)),
    r('V. ICMS UF DEST.', f.money(t.icmsUfDest)),
    r('V. TOT. TRIB.', f.money(t.estimatedTaxes)),
    r('VALOR DA COFINS', f.money(t.cofins)),
    r('V. TOTAL DA NOTA', f.money(t.invoice)),
  ]);
  return y + 44;
}

function transport(doc: Doc, nfe: ParsedNfe, y: number): number {
  const tr = nfe.transport;
  const c = tr?.carrier;
  const vols = tr?.volumes ?? [];
  const sum = (pick: (v: (typeof vols)[number]) => { toFixed: (n: number) => string } | null) => {
    const values = vols.map(pick).filter((v): v is NonNullable<typeof v> => v !== null);
    return values.length ? values.map((v) => v.toFixed(3).replace('.', ',')).join(' / ') : '';
  };
  y = section(doc, y + 3, 'TRANSPORTADOR / VOLUMES TRANSPORTADOS');
  boxRow(doc, y, 22, [
    { label: 'NOME / RAZÃO SOCIAL', value: c?.name ?? '', width: 190 },
    { label: 'FRETE POR CONTA', value: f.FREIGHT_MODE[tr?.freightMode ?? ''] ?? tr?.freightMode ?? '', width: 90 },
    { label: 'CÓDIGO ANTT', value: '', width: 60 },
    { label: 'PLACA DO VEÍCULO', value: tr?.vehiclePlate ?? '', width: 60 },
    { label: 'UF', value: c?.uf ?? '', width: 29 },
    { label: 'CNPJ / CPF', value: f.document(c?.document) },
  ]);
  boxRow(doc, y + 22, 22, [
    {
      label: 'QUANTIDADE',
      value: vols
        .map((v) => v.quantity ?? '')
        .filter(Boolean)
        .join(' / '),
      width: 70,
    },
    {
      label: 'ESPÉCIE',
      value: vols
        .map((v) => v.species ?? '')
        .filter(Boolean)
        .join(' / '),
      width: 100,
    },
    {
      label: 'MARCA',
      value: vols
        .map((v) => v.brand ?? '')
        .filter(Boolean)
        .join(' / '),
      width: 100,
    },
    { label: 'NUMERAÇÃO', value: '', width: 89 },
    { label: 'PESO BRUTO', value: sum((v) => v.grossWeight), width: 100, align: 'right' },
    { label: 'PESO LÍQUIDO', value: sum((v) => v.netWeight), align: 'right' },
  ]);
  return y + 44;
}

function itemsTable(doc: Doc, rows: MeasuredRow[], y: number, bottom: number): void {
  y = section(doc, y + 3, 'DADOS DOS PRODUTOS / SERVIÇOS');
  doc
    .lineWidth(0.5)
    .rect(M, y, W, bottom - y)
    .stroke();
  let x = M;
  doc.font('Helvetica-Bold').fontSize(4.8);
  for (const c of COLUMNS) {
    doc.text(c.label, x + 1, y + 2, { width: c.width - 2, align: 'center', height: TABLE_HEAD_H - 2 });
    x += c.width;
    if (x < M + W) doc.moveTo(x, y).lineTo(x, bottom).stroke();
  }
  doc
    .moveTo(M, y + TABLE_HEAD_H)
    .lineTo(M + W, y + TABLE_HEAD_H)
    .stroke();
  let ry = y + TABLE_HEAD_H;
  doc.font('Helvetica').fontSize(ITEM_FONT);
  for (const row of rows) {
    let cx = M;
    const height = Math.min(row.height, bottom - ry);
    row.cells.forEach((text, k) => {
      const col = COLUMNS[k];
      doc.text(text, cx + 1.5, ry + ITEM_PAD, {
        width: col.width - 3,
        height: height - ITEM_PAD,
        align: col.align,
        lineGap: 0,
        ellipsis: true,
      });
      cx += col.width;
    });
    ry += height;
    doc
      .save()
      .lineWidth(0.2)
      .strokeColor('#999999')
      .moveTo(M, ry)
      .lineTo(M + W, ry)
      .stroke()
      .restore();
  }
}

/** Splits the additional information so what does not fit on page 1 continues on the last page. */
function splitText(doc: Doc, text: string, width: number, maxHeight: number): [string, string] {
  doc.font('Helvetica').fontSize(6);
  if (doc.heightOfString(text, { width }) <= maxHeight) return [text, ''];
  const words = text.split(/(\s+)/);
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.heightOfString(words.slice(0, mid).join(''), { width }) <= maxHeight) lo = mid;
    else hi = mid - 1;
  }
  return [words.slice(0, lo).join(''), words.slice(lo).join('').trimStart()];
}

function additional(doc: Doc, text: string, y: number, h: number, title = 'DADOS ADICIONAIS'): void {
  y = section(doc, y, title);
  const infoW = 380;
  doc.lineWidth(0.5).rect(M, y, infoW, h).stroke();
  doc.rect(M + infoW, y, W - infoW, h).stroke();
  doc
    .font('Helvetica')
    .fontSize(LABEL)
    .text('INFORMAÇÕES COMPLEMENTARES', M + 2, y + 1.5, { lineBreak: false });
  doc.text('RESERVADO AO FISCO', M + infoW + 2, y + 1.5, { lineBreak: false });
  doc
    .font('Helvetica')
    .fontSize(6)
    .text(text, M + 2, y + 9, { width: infoW - 4, height: h - 10 });
}

const ADDITIONAL_MIN = 52;
const ADDITIONAL_MAX = 150;

export async function renderDanfe(input: DanfeInput): Promise<Buffer> {
  const { nfe } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    bufferPages: true,
    info: { Title: `DANFE ${nfe.accessKey}`, Subject: 'Documento Auxiliar da Nota Fiscal Eletrônica', Creator: 'retail-backoffice' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const barcode = await bwipjs.toBuffer({ bcid: 'code128', text: nfe.accessKey, scale: 2, height: 12, includetext: false });

  const info = [nfe.additionalInfo?.complementary, nfe.additionalInfo?.fisco ? `Inf. fisco: ${nfe.additionalInfo.fisco}` : null]
    .filter(Boolean)
    .join('\n');
  const [firstInfo, restInfo] = splitText(doc, info, 376, ADDITIONAL_MAX - 10);
  doc.font('Helvetica').fontSize(6);
  const additionalH = Math.max(ADDITIONAL_MIN, Math.min(ADDITIONAL_MAX, doc.heightOfString(firstInfo || ' ', { width: 376 }) + 12));
  const restH = restInfo ? Math.min(BOTTOM - M - HEADER_H - 60, doc.heightOfString(restInfo, { width: 376 }) + 12) : 0;

  // Page 1's fixed blocks are drawn on a scratch measure: their height depends on the invoice (installments).
  const dupRows = nfe.billing?.installments.length ? Math.ceil(nfe.billing.installments.length / 6) : nfe.billing?.invoice ? 1 : 0;
  const firstFixed =
    M + (44 + 9) + HEADER_H + 44 + (11 + 66) + (dupRows ? 11 + dupRows * 22 : 0) + (11 + 44) + (11 + 44) + 11 + TABLE_HEAD_H;
  const firstCapacity = BOTTOM - (additionalH + 10) - firstFixed - 2;
  const nextCapacity = BOTTOM - (M + HEADER_H + 11 + TABLE_HEAD_H) - 2;

  const rows = measureRows(doc, nfe.items);
  const pages = paginateRows(rows, firstCapacity, nextCapacity);
  // What of the additional information does not fit on page 1 continues at the foot of the last page
  // (a page of its own when the items leave no room there, or when there is only page 1).
  const lastUsed = pages[pages.length - 1].reduce((n, r) => n + r.height, 0);
  const extraPage = !!restInfo && (pages.length === 1 || nextCapacity - lastUsed < restH + 10);
  const total = pages.length + (extraPage ? 1 : 0);

  // A cancelled NF-e says so in the diagonal stamp and, readable as text, in the top margin with the
  // cancellation's protocol; homologation keeps its "sem valor fiscal" either way.
  const stamps = [...(input.cancelled ? ['NF-e CANCELADA'] : []), ...(nfe.ide.environment === '2' ? ['SEM VALOR FISCAL'] : [])];
  const c = input.cancellation;
  const banner = input.cancelled
    ? `NF-e CANCELADA${c?.protocol ? ` - PROTOCOLO DE CANCELAMENTO: ${c.protocol}` : ''}${c?.at ? ` - ${f.date(c.at)} ${f.time(c.at)}` : ''}`
    : null;
  for (let p = 0; p < total; p++) {
    doc.addPage({ size: 'A4', margin: 0 });
    const pageRows = pages[p] ?? [];
    let y = M;
    if (p === 0) {
      y = receiptStub(doc, nfe, y);
      y = header(doc, nfe, y, 1, total, barcode, input.logo);
      y = identification(doc, nfe, y);
      y = recipient(doc, nfe, y);
      y = billing(doc, nfe, y);
      y = taxes(doc, nfe, y);
      y = transport(doc, nfe, y);
      const bottom = BOTTOM - additionalH - 10;
      itemsTable(doc, pageRows, y, bottom);
      additional(doc, firstInfo, bottom + 2, additionalH);
    } else {
      y = header(doc, nfe, y, p + 1, total, barcode, input.logo);
      const isLast = p === total - 1;
      const bottom = isLast && restInfo ? BOTTOM - restH - 10 : BOTTOM;
      if (pageRows.length || !isLast || !restInfo) itemsTable(doc, pageRows, y, bottom);
      if (isLast && restInfo) additional(doc, restInfo, bottom + 2, restH, 'DADOS ADICIONAIS (CONTINUAÇÃO)');
    }
    stamps.forEach((stamp, i) => watermark(doc, stamp, i * 70));
    if (banner) {
      doc.font('Helvetica-Bold').fontSize(8).fillColor('#c00000');
      doc.text(banner, M, 6, { width: W, align: 'center', lineBreak: false });
      doc.fillColor('black');
    }
  }
  doc.end();
  return finished;
}
