import crypto from 'node:crypto';
import { Dec } from '../../core/decimal';
import type { ComputedFiscalDocument } from '../fiscal';
import { brasilia, buildNfeXml, BuiltNfe, layoutText, NfeHeader } from '../outbound-nfe';
import { accessKeyCheckDigit } from '../fiscal-xml';
import { canonicalText, NFE_NS, Signer, signNfe } from '../authority';

/*
 * The NFC-e (modelo 65) is the NF-e 4.00 layout with the counter's rules: tpImp 4 (DANFE NFC-e), no
 * dhSaiEnt, indFinal 1, indPres 1, no transport (modFrete 9), the consumer's CPF/CNPJ only when given,
 * payments with their change (vTroco), and infNFeSupl (QR code and urlChave) between infNFe and the
 * Signature. It reuses the NF-e builder for everything the two models share and adjusts the same
 * canonical text in both of its copies, so the signature still digests exactly what is stored.
 */

export interface CounterPayment {
  /** tPag: 01 cash, 03 credit card, 04 debit card, 15 boleto, 17 Pix dinâmico, 20 Pix estático, 99 other. */
  tPag: string;
  amount: Dec;
  /** The `card` group (cards, Pix and other electronic payments): tpIntegra 1 integrated (TEF), 2 not (POS). */
  card?: { tpIntegra: '1' | '2'; cnpj: string | null; tBand: string | null; cAut: string | null } | null;
  /** CNPJPag/UFPag: the establishment where the payment was taken, when it is not the issuer (NT 2023.004). */
  payer?: { cnpj: string; uf: string } | null;
}

export interface NfceHeader {
  number: number;
  series: number;
  issuedAt: Date;
  /** 1 normal, 9 offline contingency. */
  emissionType: 1 | 9;
  contingency: { at: Date; reason: string } | null;
  randomCode: string;
  tpAmb: '1' | '2';
  payments: CounterPayment[];
  change: Dec;
  additionalInfo: string;
}

export interface QrSettings {
  version: 2 | 3;
  cscId: number | null;
  cscToken: string | null;
  qrCodeUrl: string;
  consultUrl: string;
}

export interface SignedNfce extends BuiltNfe {
  /** The signed NFe with infNFeSupl. */
  signedXml: string;
  qrCode: string;
  digest: string;
}

const KIND_TPAG: Record<string, string> = {
  CASH: '01',
  CREDIT_CARD: '03',
  DEBIT_CARD: '04',
  PIX: '17',
  BANK_SLIP: '15',
  STORE_CREDIT: '05',
};
/** tPag by the method's kind; a Pix read from a static QR code (the shop's key, no charge) is 20 (Informe Técnico 2024.002). */
export const tPagOf = (kind: string, pixStatic = false): string => (kind === 'PIX' && pixStatic ? '20' : (KIND_TPAG[kind] ?? '99'));
/** The tPag that carry the card group: cards and Pix (NT 2020.006, rule 391/NT 2023.004). */
const WITH_CARD = new Set(['03', '04', '17', '20']);

const a2 = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2);

export function pagXml(h: Pick<NfceHeader, 'payments' | 'change'>): string {
  const det = h.payments
    .map((p) => {
      const c = p.card ?? (WITH_CARD.has(p.tPag) ? { tpIntegra: '2' as const, cnpj: null, tBand: null, cAut: null } : null);
      // Order of the layout: tpIntegra, CNPJ, tBand, cAut.
      const card = c
        ? `<card><tpIntegra>${c.tpIntegra}</tpIntegra>${c.cnpj ? `<CNPJ>${c.cnpj}</CNPJ>` : ''}${c.tBand ? `<tBand>${c.tBand}</tBand>` : ''}${c.cAut ? `<cAut>${canonicalText(c.cAut)}</cAut>` : ''}</card>`
        : '';
      const payer = p.payer ? `<CNPJPag>${p.payer.cnpj}</CNPJPag><UFPag>${p.payer.uf}</UFPag>` : '';
      const x = p.tPag === '99' ? '<xPag>Outros</xPag>' : '';
      return `<detPag><indPag>0</indPag><tPag>${p.tPag}</tPag>${x}<vPag>${a2(p.amount)}</vPag>${payer}${card}</detPag>`;
    })
    .join('');
  return `<pag>${det}${h.change.gt(0) ? `<vTroco>${a2(h.change)}</vTroco>` : ''}</pag>`;
}

/** The counter's adjustments of the NF-e body (applied to both copies of it). */
function adjust(body: string, h: NfceHeader): string {
  return body
    .replace(/<dhSaiEnt>[^<]*<\/dhSaiEnt>/, '')
    .replace('<tpImp>1</tpImp>', '<tpImp>4</tpImp>')
    .replace(/<enderDest>.*?<\/enderDest>/, '')
    .replace(/<transp>.*?<\/transp>/, '<transp><modFrete>9</modFrete></transp>')
    .replace(/<cobr>.*?<\/cobr>/, '')
    .replace(/<pag>.*?<\/pag>/, pagXml(h));
}

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const sha1Hex = (s: string) => crypto.createHash('sha1').update(s, 'utf8').digest('hex').toUpperCase();

export interface QrInputs {
  accessKey: string;
  tpAmb: string;
  emissionType: number;
  /** dhEmi as written (Brasília time). */
  issuedAtText: string;
  vNF: Dec;
  digestBase64: string;
  consumerDocument: string | null;
}

/**
 * The QR code's `p` parameter (NT 2015.002 v2 with the CSC; NT 2025.001 v3). Online notes carry only
 * the key (v3) or the key and the CSC hash (v2); offline notes (tpEmis 9) also carry the day, the total
 * and the digest (v2) or the consumer and an RSA-SHA1 signature of the fields by the certificate (v3).
 */
export function qrCodeParameter(q: QrInputs, s: QrSettings, signer: Signer | null): string {
  const offline = q.emissionType === 9;
  const day = q.issuedAtText.slice(8, 10);
  const vNF = a2(q.vNF);
  if (s.version === 3) {
    if (!offline) return `${q.accessKey}|3|${q.tpAmb}`;
    const doc = q.consumerDocument ?? '';
    const tp = doc.length === 14 ? '1' : doc.length === 11 ? '2' : '';
    const fields = `${q.accessKey}|3|${q.tpAmb}|${day}|${vNF}|${tp}|${doc}`;
    if (!signer) throw new Error('the v3 offline QR code is signed with the certificate');
    const signature = crypto.sign('sha1', Buffer.from(fields, 'utf8'), signer.key).toString('base64');
    return `${fields}|${signature}`;
  }
  const csc = s.cscToken ?? '';
  const idToken = String(Number(s.cscId ?? 0));
  const fields = offline
    ? `${q.accessKey}|2|${q.tpAmb}|${day}|${vNF}|${hex(q.digestBase64)}|${idToken}`
    : `${q.accessKey}|2|${q.tpAmb}|${idToken}`;
  return `${fields}|${sha1Hex(fields + csc)}`;
}

/** Builds, signs and completes (infNFeSupl) one NFC-e. */
export function buildSignedNfce(
  document: ComputedFiscalDocument,
  h: NfceHeader,
  qr: QrSettings,
  signer: Signer,
  consumerDocument: string | null,
): SignedNfce {
  const doc: ComputedFiscalDocument = { ...document, model: 65, finalConsumer: true, presence: 1, destination: 'INTERNAL' };
  const header: NfeHeader = {
    number: h.number,
    series: h.series,
    issuedAt: h.issuedAt,
    emissionType: h.emissionType as unknown as NfeHeader['emissionType'],
    contingency: h.contingency,
    randomCode: h.randomCode,
    tpAmb: h.tpAmb,
    transport: { mode: 9, volumes: null },
    installments: [],
    paymentType: '01',
    additionalInfo: h.additionalInfo,
  };
  const built = buildNfeXml(doc, header);
  const open = (s: string) => s.indexOf('>', s.indexOf('<infNFe')) + 1;
  const bodyOf = (s: string) => s.slice(open(s), s.lastIndexOf('</infNFe>'));
  const body = adjust(bodyOf(built.xml), h);
  const canonicalInfNFe = `${built.canonicalInfNFe.slice(0, open(built.canonicalInfNFe))}${body}</infNFe>`;
  const xml = `${built.xml.slice(0, open(built.xml))}${body}</infNFe></NFe>`;
  const signed = signNfe(xml, built.accessKey, canonicalInfNFe, signer);
  const p = qrCodeParameter(
    {
      accessKey: built.accessKey,
      tpAmb: h.tpAmb,
      emissionType: h.emissionType,
      issuedAtText: built.issuedAtText,
      vNF: doc.totals.vNF,
      digestBase64: signed.digest,
      consumerDocument,
    },
    qr,
    signer,
  );
  const qrCode = `${qr.qrCodeUrl}?p=${p}`;
  const supl = `<infNFeSupl><qrCode>${qrCode.replace(/&/g, '&amp;')}</qrCode><urlChave>${qr.consultUrl.replace(/&/g, '&amp;')}</urlChave></infNFeSupl>`;
  const at = signed.xml.indexOf('</infNFe>') + '</infNFe>'.length;
  const signedXml = `${signed.xml.slice(0, at)}${supl}${signed.xml.slice(at)}`;
  return { accessKey: built.accessKey, xml, canonicalInfNFe, issuedAtText: built.issuedAtText, signedXml, qrCode, digest: signed.digest };
}

/**
 * The same note in offline contingency (tpEmis 9): the stored NFe's infNFe with tpEmis 9, its new key
 * (tpEmis is part of the key, so cDV and Id change), dhCont and xJust, signed again with a new QR code.
 * Nothing else changes: number, cNF, dhEmi, items and totals are the ones the sale committed — except
 * with `renumber`, when the online attempt may have reached the authority: the offline note then takes
 * a number (and cNF) of its own, so both can stand and the attempt be cancelled by substitution.
 */
export function toOfflineContingency(
  storedSignedXml: string,
  at: Date,
  reason: string,
  qr: QrSettings,
  signer: Signer,
  tpAmb: '1' | '2',
  vNF: Dec,
  consumerDocument: string | null,
  renumber: { number: number; randomCode: string } | null = null,
): SignedNfce & { accessKey: string } {
  const m = /<infNFe Id="NFe(\d{44})" versao="4\.00">(.*)<\/infNFe>/s.exec(storedSignedXml);
  if (!m) throw new Error('not an NFC-e of this builder');
  const oldKey = m[1];
  // Key: cUF AAMM CNPJ mod(2) série(3) nNF(9) tpEmis cNF(8) cDV.
  const nNF = renumber ? String(renumber.number).padStart(9, '0') : oldKey.slice(25, 34);
  const cNF = renumber ? renumber.randomCode : oldKey.slice(35, 43);
  const first43 = `${oldKey.slice(0, 25)}${nNF}9${cNF}`;
  const accessKey = `${first43}${accessKeyCheckDigit(first43)}`;
  const dhCont = brasilia(at);
  const xJust = layoutText(reason, 256) ?? 'Sem comunicacao com a SEFAZ autorizadora';
  let renumbered = m[2];
  if (renumber)
    renumbered = renumbered.replace(/<cNF>\d{8}<\/cNF>/, `<cNF>${cNF}</cNF>`).replace(/<nNF>\d+<\/nNF>/, `<nNF>${renumber.number}</nNF>`);
  const body = renumbered
    .replace('<tpEmis>1</tpEmis>', '<tpEmis>9</tpEmis>')
    .replace(/<cDV>\d<\/cDV>/, `<cDV>${accessKey[43]}</cDV>`)
    .replace('</verProc></ide>', `</verProc><dhCont>${dhCont}</dhCont><xJust>${canonicalText(xJust)}</xJust></ide>`);
  const canonicalInfNFe = `<infNFe xmlns="${NFE_NS}" Id="NFe${accessKey}" versao="4.00">${body}</infNFe>`;
  const xml = `<NFe xmlns="${NFE_NS}"><infNFe Id="NFe${accessKey}" versao="4.00">${body}</infNFe></NFe>`;
  const signed = signNfe(xml, accessKey, canonicalInfNFe, signer);
  const issuedAtText = /<dhEmi>([^<]+)<\/dhEmi>/.exec(body)![1];
  const p = qrCodeParameter(
    { accessKey, tpAmb, emissionType: 9, issuedAtText, vNF, digestBase64: signed.digest, consumerDocument },
    qr,
    signer,
  );
  const qrCode = `${qr.qrCodeUrl}?p=${p}`;
  const supl = `<infNFeSupl><qrCode>${qrCode.replace(/&/g, '&amp;')}</qrCode><urlChave>${qr.consultUrl.replace(/&/g, '&amp;')}</urlChave></infNFeSupl>`;
  const cut = signed.xml.indexOf('</infNFe>') + '</infNFe>'.length;
  return {
    accessKey,
    xml,
    canonicalInfNFe,
    issuedAtText,
    signedXml: `${signed.xml.slice(0, cut)}${supl}${signed.xml.slice(cut)}`,
    qrCode,
    digest: signed.digest,
  };
}
