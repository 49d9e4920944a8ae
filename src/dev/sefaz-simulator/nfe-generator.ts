import crypto from 'node:crypto';
import { Dec } from '../../core/decimal';
import { buildAccessKey } from '../../modules/fiscal-xml';
import { brasiliaDateTime, canonicalText, NFE_NS, signerOf, signNfe, SigningCredentials, ufCode } from '../../modules/authority';

/*
 * Synthetic but layout-valid NF-e 4.00 documents (nfeProc: signed NFe + protNFe) so the simulator
 * can issue invoices to any recipient: tests, and a developer rehearsing the flow against the demo
 * tenant. Normal regime (CRT 3): ICMS00 18 %, PIS 1.65 %, COFINS 7.6 %, one or more installments.
 * Every amount is computed with Dec and written with its layout scale.
 */

export interface GeneratedParty {
  cnpj: string;
  name: string;
  uf: string;
  /** Inscrição estadual (issuer only; the recipient is written as "no IE"). */
  stateRegistration?: string;
}

export interface GeneratedItem {
  code: string;
  description: string;
  gtin?: string | null;
  ncm: string;
  unit: string;
  quantity: string;
  unitPrice: string;
}

export interface GenerateOptions {
  issuer: GeneratedParty;
  recipient: GeneratedParty;
  items: GeneratedItem[];
  /** 1 production, 2 homologação. */
  tpAmb: '1' | '2';
  number: number;
  series?: number;
  issuedAt?: Date;
  installments?: number;
  signer: SigningCredentials;
}

export interface GeneratedNfe {
  accessKey: string;
  xml: string;
  total: string;
  protocol: string;
  authorizedAt: string;
}

const CITY: Record<string, { code: string; name: string; zip: string }> = {
  SP: { code: '3550308', name: 'SAO PAULO', zip: '01310100' },
  PR: { code: '4106902', name: 'CURITIBA', zip: '80010000' },
  RJ: { code: '3304557', name: 'RIO DE JANEIRO', zip: '20040002' },
  MG: { code: '3106200', name: 'BELO HORIZONTE', zip: '30130010' },
  SC: { code: '4205407', name: 'FLORIANOPOLIS', zip: '88010000' },
  RS: { code: '4314902', name: 'PORTO ALEGRE', zip: '90010000' },
};
const cityOf = (uf: string) => CITY[uf] ?? CITY.SP;

const money = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2);
const qty = (d: Dec) => d.toDecimalPlaces(4, Dec.ROUND_HALF_UP).toFixed(4);
const price = (d: Dec) => d.toDecimalPlaces(10, Dec.ROUND_HALF_UP).toFixed(10);
// Canonical text (C14N's escaping): the note is signed over the text as written.
const text = (s: string, max: number) =>
  canonicalText(
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max),
  );

function address(tag: 'enderEmit' | 'enderDest', uf: string): string {
  const city = cityOf(uf);
  return `<${tag}><xLgr>AVENIDA CENTRAL</xLgr><nro>1000</nro><xBairro>CENTRO</xBairro><cMun>${city.code}</cMun><xMun>${city.name}</xMun><UF>${uf}</UF><CEP>${city.zip}</CEP><cPais>1058</cPais><xPais>BRASIL</xPais></${tag}>`;
}

/** A protocol number: 1 (state) + 2-digit year + 12 digits. */
export function protocolNumber(at: Date, serial: number): string {
  return `1${String(at.getUTCFullYear()).slice(2)}${String(serial).padStart(12, '0')}`;
}

export function generateNfe(o: GenerateOptions, protocolSerial: number): GeneratedNfe {
  const issuedAt = o.issuedAt ?? new Date();
  const issuedText = brasiliaDateTime(issuedAt);
  const cUF = ufCode(o.issuer.uf) ?? '35';
  const series = o.series ?? 1;
  const randomCode = String(crypto.randomInt(10_000_000, 99_999_999));
  const accessKey = buildAccessKey({
    ufCode: cUF,
    issuedAt: issuedText,
    issuerDocument: o.issuer.cnpj,
    model: '55',
    series: String(series),
    number: String(o.number),
    emissionType: '1',
    randomCode,
  });
  const interstate = o.issuer.uf !== o.recipient.uf;
  // In homologação the authorities require this recipient name (rejection 598 otherwise).
  const recipientName = o.tpAmb === '2' ? 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' : o.recipient.name;
  const cfop = interstate ? '6102' : '5102';

  let vProd = new Dec(0);
  let vICMS = new Dec(0);
  let vPIS = new Dec(0);
  let vCOFINS = new Dec(0);
  const det = o.items
    .map((item, i) => {
      const q = new Dec(item.quantity);
      const unit = new Dec(item.unitPrice);
      const total = q.mul(unit).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
      const icms = total.mul('0.18').toDecimalPlaces(2, Dec.ROUND_HALF_UP);
      const pis = total.mul('0.0165').toDecimalPlaces(2, Dec.ROUND_HALF_UP);
      const cofins = total.mul('0.076').toDecimalPlaces(2, Dec.ROUND_HALF_UP);
      vProd = vProd.add(total);
      vICMS = vICMS.add(icms);
      vPIS = vPIS.add(pis);
      vCOFINS = vCOFINS.add(cofins);
      const ean = item.gtin ?? 'SEM GTIN';
      return (
        `<det nItem="${i + 1}"><prod><cProd>${text(item.code, 60)}</cProd><cEAN>${ean}</cEAN><xProd>${text(item.description, 120)}</xProd>` +
        `<NCM>${item.ncm}</NCM><CFOP>${cfop}</CFOP><uCom>${text(item.unit, 6)}</uCom><qCom>${qty(q)}</qCom><vUnCom>${price(unit)}</vUnCom>` +
        `<vProd>${money(total)}</vProd><cEANTrib>${ean}</cEANTrib><uTrib>${text(item.unit, 6)}</uTrib><qTrib>${qty(q)}</qTrib><vUnTrib>${price(unit)}</vUnTrib>` +
        `<indTot>1</indTot></prod><imposto>` +
        `<ICMS><ICMS00><orig>0</orig><CST>00</CST><modBC>3</modBC><vBC>${money(total)}</vBC><pICMS>18.00</pICMS><vICMS>${money(icms)}</vICMS></ICMS00></ICMS>` +
        `<PIS><PISAliq><CST>01</CST><vBC>${money(total)}</vBC><pPIS>1.65</pPIS><vPIS>${money(pis)}</vPIS></PISAliq></PIS>` +
        `<COFINS><COFINSAliq><CST>01</CST><vBC>${money(total)}</vBC><pCOFINS>7.60</pCOFINS><vCOFINS>${money(cofins)}</vCOFINS></COFINSAliq></COFINS>` +
        `</imposto></det>`
      );
    })
    .join('');
  const vNF = vProd;

  // Installments split the total in cents; the last one takes the remainder.
  const parts = Math.max(1, o.installments ?? 1);
  const share = vNF.div(parts).toDecimalPlaces(2, Dec.ROUND_DOWN);
  const dups = Array.from({ length: parts }, (_v, i) => {
    const amount = i === parts - 1 ? vNF.sub(share.mul(parts - 1)) : share;
    const due = new Date(issuedAt.getTime() + (i + 1) * 30 * 86_400_000).toISOString().slice(0, 10);
    return `<dup><nDup>${String(i + 1).padStart(3, '0')}</nDup><dVenc>${due}</dVenc><vDup>${money(amount)}</vDup></dup>`;
  }).join('');

  const zero = '0.00';
  const infNFe =
    `<infNFe Id="NFe${accessKey}" versao="4.00">` +
    `<ide><cUF>${cUF}</cUF><cNF>${randomCode}</cNF><natOp>VENDA DE MERCADORIA</natOp><mod>55</mod><serie>${series}</serie><nNF>${o.number}</nNF>` +
    `<dhEmi>${issuedText}</dhEmi><tpNF>1</tpNF><idDest>${interstate ? 2 : 1}</idDest><cMunFG>${cityOf(o.issuer.uf).code}</cMunFG><tpImp>1</tpImp>` +
    `<tpEmis>1</tpEmis><cDV>${accessKey[43]}</cDV><tpAmb>${o.tpAmb}</tpAmb><finNFe>1</finNFe><indFinal>0</indFinal><indPres>9</indPres>` +
    `<procEmi>0</procEmi><verProc>SIMULADOR SEFAZ 1.0</verProc></ide>` +
    `<emit><CNPJ>${o.issuer.cnpj}</CNPJ><xNome>${text(o.issuer.name, 60)}</xNome>${address('enderEmit', o.issuer.uf)}` +
    `<IE>${o.issuer.stateRegistration ?? 'ISENTO'}</IE><CRT>3</CRT></emit>` +
    `<dest><CNPJ>${o.recipient.cnpj}</CNPJ><xNome>${text(recipientName, 60)}</xNome>${address('enderDest', o.recipient.uf)}<indIEDest>9</indIEDest></dest>` +
    det +
    `<total><ICMSTot><vBC>${money(vProd)}</vBC><vICMS>${money(vICMS)}</vICMS><vICMSDeson>${zero}</vICMSDeson><vFCP>${zero}</vFCP>` +
    `<vBCST>${zero}</vBCST><vST>${zero}</vST><vFCPST>${zero}</vFCPST><vFCPSTRet>${zero}</vFCPSTRet><vProd>${money(vProd)}</vProd>` +
    `<vFrete>${zero}</vFrete><vSeg>${zero}</vSeg><vDesc>${zero}</vDesc><vII>${zero}</vII><vIPI>${zero}</vIPI><vIPIDevol>${zero}</vIPIDevol>` +
    `<vPIS>${money(vPIS)}</vPIS><vCOFINS>${money(vCOFINS)}</vCOFINS><vOutro>${zero}</vOutro><vNF>${money(vNF)}</vNF></ICMSTot></total>` +
    `<transp><modFrete>9</modFrete></transp>` +
    `<cobr><fat><nFat>${o.number}</nFat><vOrig>${money(vNF)}</vOrig><vDesc>${zero}</vDesc><vLiq>${money(vNF)}</vLiq></fat>${dups}</cobr>` +
    `<pag><detPag><tPag>15</tPag><vPag>${money(vNF)}</vPag></detPag></pag>` +
    `<infAdic><infCpl>Documento emitido pelo simulador local da SEFAZ, sem valor fiscal</infCpl></infAdic>` +
    `</infNFe>`;
  // infNFe in canonical form declares the namespace it inherits from NFe.
  const canonicalInfNFe = infNFe.replace('<infNFe ', `<infNFe xmlns="${NFE_NS}" `);
  const { xml: signed, digest } = signNfe(
    `<NFe xmlns="${NFE_NS}">${infNFe}</NFe>`,
    accessKey,
    canonicalInfNFe,
    signerOf(o.signer.keyPem, o.signer.certPem),
  );
  const authorized = new Date(Math.max(issuedAt.getTime() + 1000, Date.now()));
  const authorizedAt = brasiliaDateTime(authorized);
  const protocol = protocolNumber(authorized, protocolSerial);
  const prot =
    `<protNFe versao="4.00"><infProt><tpAmb>${o.tpAmb}</tpAmb><verAplic>SIMULADOR_1.0</verAplic><chNFe>${accessKey}</chNFe>` +
    `<dhRecbto>${authorizedAt}</dhRecbto><nProt>${protocol}</nProt><digVal>${digest}</digVal><cStat>100</cStat>` +
    `<xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>`;
  return {
    accessKey,
    xml: `<nfeProc xmlns="${NFE_NS}" versao="4.00">${signed}${prot}</nfeProc>`,
    total: money(vNF),
    protocol,
    authorizedAt,
  };
}

/** A handful of everyday goods (the demo tenant's catalogue among them) for generated invoices. */
export const SAMPLE_ITEMS: GeneratedItem[] = [
  {
    code: 'CERV350',
    description: 'Cerveja Pilsen 350ml lata',
    gtin: '7891234567895',
    ncm: '22030000',
    unit: 'UN',
    quantity: '48',
    unitPrice: '2.79',
  },
  {
    code: 'REFRI2L',
    description: 'Refrigerante Cola 2L',
    gtin: '7894900011517',
    ncm: '22021000',
    unit: 'UN',
    quantity: '24',
    unitPrice: '5.05',
  },
  { code: 'ARROZ5', description: 'Arroz Branco Tipo 1 5kg', gtin: null, ncm: '10063021', unit: 'PCT', quantity: '10', unitPrice: '19.30' },
  { code: 'FEIJAO1', description: 'Feijao Carioca 1kg', gtin: null, ncm: '07133319', unit: 'PCT', quantity: '20', unitPrice: '5.60' },
  {
    code: 'CAFE500',
    description: 'Cafe Torrado e Moido 500g',
    gtin: null,
    ncm: '09012100',
    unit: 'PCT',
    quantity: '12',
    unitPrice: '12.35',
  },
];
