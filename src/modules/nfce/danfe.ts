import { fiscalDateTime } from '../../core/business-date';
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import type { NfceDocument } from './entities/nfce-document.entity';

/*
 * DANFE NFC-e (Manual de Especificações Técnicas do DANFE NFC-e e QR Code): header (issuer), items,
 * totals, payments and change, consumer, the consultation URL and the key in groups of four, the QR
 * code, the protocol or "EMITIDA EM CONTINGÊNCIA", and the Lei 12.741 line. As plain text for ESC/POS
 * printers (48 columns, the printer draws the QR code from the URL) and as an 80 mm PDF.
 */

const COLS = 48;
const TPAG: Record<string, string> = {
  '01': 'Dinheiro',
  '02': 'Cheque',
  '03': 'Cartao de Credito',
  '04': 'Cartao de Debito',
  '05': 'Credito Loja',
  '15': 'Boleto',
  '17': 'PIX',
  '99': 'Outros',
};
const brl = (v: string) => Number(v).toFixed(2).replace('.', ',');
const center = (s: string) => (s.length >= COLS ? s : `${' '.repeat(Math.floor((COLS - s.length) / 2))}${s}`);
const line = (left: string, right: string) => {
  const room = COLS - right.length - 1;
  return `${left.slice(0, room).padEnd(room)} ${right}`;
};
export const keyInGroups = (key: string) => key.replace(/(.{4})/g, '$1 ').trim();
const brasilia = (d: Date) => {
  const t = fiscalDateTime(new Date(d));
  return `${t.slice(8, 10)}/${t.slice(5, 7)}/${t.slice(0, 4)} ${t.slice(11, 19)}`;
};
const formatDoc = (d: string) =>
  d.length === 11
    ? d.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4')
    : d.replace(/(\w{2})(\w{3})(\w{3})(\w{4})(\d{2})/, '$1.$2.$3/$4-$5');

/** The DANFE NFC-e's lines, in print order (shared by the text and the PDF). */
export function danfeLines(d: NfceDocument): { head: string[]; items: string[]; totals: string[]; tail: string[] } {
  const s = d.summary;
  const head = [
    s.issuerName,
    `CNPJ: ${formatDoc(s.issuerDocument)}`,
    s.issuerAddress,
    'Documento Auxiliar da Nota Fiscal de Consumidor Eletronica',
  ];
  if (d.tpAmb === '2') head.push('EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL');
  // Issued offline it stays "emitida em contingência" (tpEmis 9 is in the XML); pending only until the authority answered.
  if (d.emissionType === 9) head.push('EMITIDA EM CONTINGENCIA');
  if (d.emissionType === 9 && !d.protocol) head.push('Pendente de autorizacao');
  if (d.status === 'CANCELLED') head.push(`NFC-e CANCELADA${d.cancelProtocol ? ` - Protocolo de cancelamento: ${d.cancelProtocol}` : ''}`);
  const items = ['# CODIGO DESCRICAO QTD UN VL UNIT VL TOTAL'];
  s.items.forEach((i, n) => {
    items.push(`${String(n + 1).padStart(3, '0')} ${i.code} ${i.description}`);
    items.push(line(`    ${Number(i.quantity)} ${i.unit} x ${brl(i.unitPrice)}`, brl(i.total)));
  });
  const totals = [line('Qtde. total de itens', String(s.items.length)), line('Valor total R$', brl(s.vProd))];
  if (Number(s.vDesc) > 0) totals.push(line('Descontos R$', brl(s.vDesc)));
  totals.push(line('Valor a Pagar R$', brl(s.vNF)), line('FORMA PAGAMENTO', 'VALOR PAGO R$'));
  for (const p of s.payments) totals.push(line(TPAG[p.tPag] ?? 'Outros', brl(p.amount)));
  if (Number(s.change) > 0) totals.push(line('Troco R$', brl(s.change)));
  const tail = [
    `Consulte pela Chave de Acesso em`,
    d.consultUrl,
    keyInGroups(d.accessKey),
    d.consumerDocument
      ? `CONSUMIDOR ${d.consumerDocument.length === 11 ? 'CPF' : 'CNPJ'}: ${formatDoc(d.consumerDocument)}${s.consumerName ? ` ${s.consumerName}` : ''}`
      : 'CONSUMIDOR NAO IDENTIFICADO',
    `NFC-e n ${String(d.number).padStart(9, '0')} Serie ${String(d.series).padStart(3, '0')} ${brasilia(d.issuedAt)}`,
    d.protocol ? `Protocolo de autorizacao: ${d.protocol}` : d.emissionType === 9 ? 'EMITIDA EM CONTINGENCIA' : 'Pendente de autorizacao',
    d.protocol && d.authorizedAt ? `Data de autorizacao: ${brasilia(d.authorizedAt)}` : '',
    `Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ ${brl(s.vTotTrib)}`,
  ].filter(Boolean);
  return { head, items, totals, tail };
}

/** Plain text for an ESC/POS printer (48 columns); the QR code's content is the last line's URL. */
export function danfeText(d: NfceDocument): string {
  const l = danfeLines(d);
  const rule = '-'.repeat(COLS);
  return [...l.head.map(center), rule, ...l.items, rule, ...l.totals, rule, ...l.tail.map(center), rule, 'QR Code:', d.qrCode, ''].join(
    '\n',
  );
}

/** The logo's box above the issuer's name (points): the manual leaves the header's layout to the issuer. */
const LOGO_BOX: [number, number] = [120, 40];

/** The 80 mm PDF (72 mm printable), as tall as its content; the company's logo (PNG or JPEG) above the issuer when given. */
export async function danfePdf(d: NfceDocument, logo: Buffer | null = null): Promise<Buffer> {
  const l = danfeLines(d);
  const width = 226.77; // 80 mm
  const margin = 10;
  const lineHeight = 9;
  const count = l.head.length + l.items.length + l.totals.length + l.tail.length + 6;
  const qrSize = 120;
  const height = margin * 2 + count * lineHeight + qrSize + 40 + (logo ? LOGO_BOX[1] + 4 : 0);
  const qr: Buffer = await bwipjs.toBuffer({ bcid: 'qrcode', text: d.qrCode, scale: 3 });
  const doc = new PDFDocument({
    size: [width, height],
    margin,
    info: { Title: `DANFE NFC-e ${d.accessKey}`, Creator: 'retail-backoffice' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const w = width - margin * 2;
  if (logo) {
    doc.image(logo, (width - LOGO_BOX[0]) / 2, doc.y, { fit: LOGO_BOX, align: 'center', valign: 'center' });
    doc.y += LOGO_BOX[1] + 4;
  }
  doc.font('Helvetica-Bold').fontSize(7);
  for (const t of l.head) doc.text(t, { width: w, align: 'center' });
  doc.moveDown(0.3).font('Courier').fontSize(5.6);
  for (const t of l.items) doc.text(t, { width: w });
  doc.moveDown(0.3);
  for (const t of l.totals) doc.text(t, { width: w });
  doc.moveDown(0.3).font('Helvetica').fontSize(6.5);
  for (const t of l.tail) doc.text(t.replace('CONTINGENCIA', 'CONTINGÊNCIA'), { width: w, align: 'center' });
  doc.moveDown(0.5);
  doc.image(qr, (width - qrSize) / 2, doc.y, { width: qrSize, height: qrSize });
  doc.end();
  return finished;
}
