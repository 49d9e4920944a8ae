import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Dec } from '../../src/core/decimal';
import type { ComputedFiscalDocument, FiscalItem } from '../../src/modules/fiscal/fiscal-document';

/*
 * Tools for the emission tests: hand-built computed documents (the engine's contract, filled as the
 * engine would), and the two independent checks every emitted XML must pass — xmllint against the
 * official PL_010_V1.30 schemas and xmlsec1 on the signature. Both skip without the tools or fixtures.
 */

/** ../shared/fixtures/nfe beside the repository (a worktree one level deeper looks one level up). */
export const FIXTURES_DIR =
  [path.resolve(__dirname, '../../../shared/fixtures/nfe'), path.resolve(__dirname, '../../../../shared/fixtures/nfe')].find((p) =>
    fs.existsSync(p),
  ) ?? path.resolve(__dirname, '../../../shared/fixtures/nfe');
export const XSD_DIR = path.join(FIXTURES_DIR, 'xsd/PL_010_V1.30');
const hasTool = (tool: string) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
export const canValidateXsd = fs.existsSync(XSD_DIR) && hasTool('xmllint');
export const canVerifySignature = hasTool('xmlsec1');

const d = (v: string | number) => new Dec(v);
const Z = d(0);

export function xsdErrors(xml: string, schema = 'procNFe_v4.00.xsd'): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nfe-out-'));
  try {
    const file = path.join(dir, 'doc.xml');
    fs.writeFileSync(file, xml);
    const res = spawnSync('xmllint', ['--noout', '--schema', path.join(XSD_DIR, schema), file], { encoding: 'utf8' });
    return res.status === 0 ? null : res.stderr;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** xmlsec1 --verify of the infNFe signature with the embedded certificate (trust is not the point here). */
export function xmlsecErrors(xml: string, idElement = 'infNFe'): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nfe-sig-'));
  try {
    const file = path.join(dir, 'doc.xml');
    fs.writeFileSync(file, xml);
    const res = spawnSync('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', idElement, file], { encoding: 'utf8' });
    return res.status === 0 ? null : res.stderr;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function sampleItem(n: number, over: Partial<FiscalItem> = {}): FiscalItem {
  const quantity = d(2);
  const unitPrice = d('10.5');
  const gross = quantity.mul(unitPrice);
  const base = gross;
  return {
    lineNumber: n,
    productId: n,
    salesOrderItemId: null,
    code: `P${n}`,
    gtin: 'SEM GTIN',
    description: `Produto de teste nº ${n} & cia <especial>`,
    ncm: '22030000',
    cest: null,
    cfop: '5102',
    unit: 'UN',
    quantity,
    unitPrice,
    grossTotal: gross,
    taxableGtin: 'SEM GTIN',
    taxableUnit: 'UN',
    taxableQuantity: quantity,
    taxableUnitPrice: unitPrice,
    freight: Z,
    insurance: Z,
    discount: Z,
    otherExpenses: Z,
    icms: {
      origin: 0,
      cst: '00',
      csosn: null,
      modBC: 3,
      baseReduction: null,
      base,
      rate: d(18),
      value: base.mul('0.18').toDecimalPlaces(2),
      fcpBase: null,
      fcpRate: null,
      fcpValue: null,
      st: null,
      simplesCreditRate: null,
      simplesCreditValue: null,
    },
    difal: null,
    ipi: null,
    pis: { cst: '01', base, rate: d('1.65'), value: base.mul('0.0165').toDecimalPlaces(2) },
    cofins: { cst: '01', base, rate: d('7.6'), value: base.mul('0.076').toDecimalPlaces(2) },
    ibsCbs: null,
    approximateTaxes: gross.mul('0.3').toDecimalPlaces(2),
    total: gross,
    rule: { ruleId: null, description: 'test', ratesSource: 'test' },
    ...over,
  };
}

const sum = (items: FiscalItem[], pick: (i: FiscalItem) => Dec | null | undefined) =>
  items.reduce((s, i) => s.add(pick(i) ?? 0), new Dec(0));

/** A computed document as the engine would answer it (totals are the sums of the items). */
export function sampleDocument(
  opts: { issuerCnpj?: string; recipientCnpj?: string; items?: FiscalItem[]; email?: string | null } = {},
): ComputedFiscalDocument {
  const items = opts.items ?? [sampleItem(1), sampleItem(2)];
  const vProd = sum(items, (i) => i.grossTotal);
  const vDesc = sum(items, (i) => i.discount);
  const vFrete = sum(items, (i) => i.freight);
  const vST = sum(items, (i) => i.icms.st?.value);
  const vIPI = sum(items, (i) => i.ipi?.value);
  const vNF = sum(items, (i) => i.total);
  const ibs = items.some((i) => i.ibsCbs);
  return {
    model: 55,
    operation: 'SALE',
    operationNature: 'Venda de mercadoria',
    direction: 1,
    purpose: 1,
    destination: 'INTERNAL',
    finalConsumer: false,
    presence: 1,
    issueDate: new Date().toISOString().slice(0, 10),
    ruleSetId: '2026',
    issuer: {
      filialId: 1,
      document: opts.issuerCnpj ?? '11222333000181',
      name: 'Mercado Bom Preço Ltda',
      tradeName: 'Bom Preço',
      stateRegistration: '111222333444',
      cnae: '4711302',
      crt: 3,
      industrial: false,
      address: {
        street: 'Rua das Flores',
        number: '100',
        complement: null,
        district: 'Centro',
        municipalityCode: '3550308',
        municipalityName: 'São Paulo',
        uf: 'SP',
        postalCode: '01001000',
        countryCode: '1058',
        countryName: 'Brasil',
        phone: '1133334444',
      },
      ufCode: '35',
    },
    recipient: {
      customerId: 1,
      personType: 'PJ',
      document: opts.recipientCnpj ?? '23765766000162',
      name: 'Comercial Destino Ltda',
      ieIndicator: 9,
      stateRegistration: null,
      email: opts.email === undefined ? 'compras@destino.com.br' : opts.email,
      address: {
        street: 'Av. Paulista',
        number: '1000',
        complement: 'Sala 1',
        district: 'Bela Vista',
        municipalityCode: '3550308',
        municipalityName: 'São Paulo',
        uf: 'SP',
        postalCode: '01310100',
        countryCode: '1058',
        countryName: 'Brasil',
        phone: null,
      },
    },
    items,
    totals: {
      vBC: sum(items, (i) => i.icms.base),
      vICMS: sum(items, (i) => i.icms.value),
      vICMSDeson: Z,
      vFCPUFDest: sum(items, (i) => i.difal?.fcpValue),
      vICMSUFDest: sum(items, (i) => i.difal?.destinationValue),
      vICMSUFRemet: sum(items, (i) => i.difal?.originValue),
      vFCP: sum(items, (i) => i.icms.fcpValue),
      vBCST: sum(items, (i) => i.icms.st?.base),
      vST,
      vFCPST: sum(items, (i) => i.icms.st?.fcpValue),
      vFCPSTRet: Z,
      vProd,
      vFrete,
      vSeg: Z,
      vDesc,
      vII: Z,
      vIPI,
      vIPIDevol: Z,
      vPIS: sum(items, (i) => i.pis.value),
      vCOFINS: sum(items, (i) => i.cofins.value),
      vOutro: Z,
      vNF,
      vTotTrib: sum(items, (i) => i.approximateTaxes),
      ibsCbs: ibs
        ? {
            base: sum(items, (i) => i.ibsCbs?.base),
            ibsUf: sum(items, (i) => i.ibsCbs?.ibsUfValue),
            ibsMun: sum(items, (i) => i.ibsCbs?.ibsMunValue),
            ibs: sum(items, (i) => i.ibsCbs?.ibsValue),
            cbs: sum(items, (i) => i.ibsCbs?.cbsValue),
          }
        : null,
      // 2026: vNFTot = Σ vItem = vNF (NT 2025.002 VB01-10 Exceção 1, W60-10).
      vNFTot: ibs ? vNF : null,
    },
    warnings: [],
  };
}

/** An item with every group the builder writes: ST, FCP, IPI, DIFAL, IBS/CBS, discount and freight. */
export function richItem(n: number): FiscalItem {
  const base = d('100.00');
  return sampleItem(n, {
    quantity: d(4),
    unitPrice: d(25),
    grossTotal: d(100),
    taxableQuantity: d(4),
    taxableUnitPrice: d(25),
    discount: d(5),
    freight: d(5),
    icms: {
      origin: 0,
      cst: '10',
      csosn: null,
      modBC: 3,
      baseReduction: null,
      base,
      rate: d(18),
      value: d(18),
      fcpBase: base,
      fcpRate: d(2),
      fcpValue: d(2),
      st: {
        modBCST: 4,
        mva: d(40),
        baseReduction: null,
        base: d(140),
        rate: d(18),
        value: d('7.2'),
        fcpBase: d(140),
        fcpRate: d(2),
        fcpValue: d('0.8'),
      },
      simplesCreditRate: null,
      simplesCreditValue: null,
    },
    ipi: { cst: '50', enquadramento: '999', base, rate: d(5), value: d(5) },
    difal: {
      base,
      fcpBase: base,
      fcpRate: d(2),
      internalRate: d(18),
      interstateRate: d(12),
      destinationShare: d(100),
      fcpValue: d(2),
      destinationValue: d(6),
      originValue: d(0),
    },
    ibsCbs: {
      cst: '000',
      cClassTrib: '000001',
      base,
      ibsUfRate: d('0.1'),
      ibsUfValue: d('0.1'),
      ibsMunRate: d(0),
      ibsMunValue: d(0),
      ibsValue: d('0.1'),
      cbsRate: d('0.9'),
      cbsValue: d('0.9'),
    },
    total: d(100).sub(5).add(5).add('7.2').add('0.8').add(5),
  });
}
