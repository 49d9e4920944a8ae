import { Dec } from '../../../core/decimal';
import { AppError, ValidationError } from '../../../core/errors';
import { parseXml } from '../xml-document';
import { DATE, DATE_TIME, Reader, XNode } from '../xml-reader';
import {
  readContribution,
  readIbsCbs,
  readIbsCbsTotals,
  readIcms,
  readImportTax,
  readIpi,
  readSelectiveTax,
  readSelectiveTaxTotal,
} from './nfe-tax-groups';
import type {
  NfeAddress,
  NfeBilling,
  NfeIde,
  NfeItem,
  NfeParty,
  NfePayment,
  NfeProtocol,
  NfeReference,
  NfeTotals,
  NfeTransport,
  ParsedNfe,
} from './nfe-types';

/*
 * NF-e XML → ParsedNfe. Reads layout 4.00 fully — with the tax-reform groups of PL_010 (NT 2025.002):
 * cMunFGIBS, finNFe 5/6, tpNFDebito/tpNFCredito, gCompraGov and gPagAntecipado in ide; IBSCBS, IS,
 * vItem and DFeReferenciado per item; IBSCBSTot, ISTot and vNFTot in the totals — and 3.10 where it
 * differs (indPag in ide, no pag, no FCP fields, dEmi in 2.00-style documents). The tax groups are
 * read by nfe-tax-groups.ts. Structure problems are collected with their layout path and reported
 * together (400 NFE_INVALID_CONTENT); business checks live in the validation report.
 */

export const SUPPORTED_VERSIONS = ['4.00', '3.10'] as const;

function readAddress(r: Reader, node: XNode | null, path: string): NfeAddress | null {
  if (!node) return null;
  return {
    street: r.text(node, 'xLgr', path),
    number: r.text(node, 'nro', path),
    district: r.text(node, 'xBairro', path),
    cityCode: r.text(node, 'cMun', path),
    city: r.text(node, 'xMun', path),
    uf: r.text(node, 'UF', path),
    zipCode: r.text(node, 'CEP', path),
  };
}

function readParty(r: Reader, node: XNode, path: string, addressTag: 'enderEmit' | 'enderDest'): NfeParty {
  const cnpj = r.text(node, 'CNPJ', path);
  const cpf = r.text(node, 'CPF', path);
  const foreign = node.idEstrangeiro !== undefined;
  const address = readAddress(r, r.node(node, addressTag, path), `${path}/${addressTag}`);
  return {
    documentKind: cnpj ? 'CNPJ' : cpf ? 'CPF' : foreign ? 'FOREIGN' : null,
    document: cnpj ?? cpf ?? (foreign ? (r.text(node, 'idEstrangeiro', path) ?? '') : null),
    name: r.text(node, 'xNome', path),
    tradeName: r.text(node, 'xFant', path),
    stateRegistration: r.text(node, 'IE', path),
    uf: address?.uf ?? null,
    address,
    email: r.text(node, 'email', path),
    taxRegime: r.text(node, 'CRT', path),
  };
}

const REFERENCE_KEYS: Record<string, NfeReference['kind']> = { refNFe: 'NFE', refNFeSig: 'NFE_SIG', refCTe: 'CTE' };
const REFERENCE_GROUPS: Record<string, NfeReference['kind']> = { refNF: 'NF', refNFP: 'NFP', refECF: 'ECF' };

/** One NFref: a key (refNFe, refNFeSig, refCTe) or the fields of a paper, producer or ECF document. */
function readReference(r: Reader, ref: XNode, path: string): NfeReference {
  const tag = r.childTags(ref)[0] ?? '';
  if (REFERENCE_KEYS[tag]) return { kind: REFERENCE_KEYS[tag], accessKey: r.text(ref, tag, path), fields: null };
  if (REFERENCE_GROUPS[tag]) {
    const g = r.node(ref, tag, path) ?? {};
    const fields = Object.fromEntries(r.childTags(g).map((k) => [k, r.text(g, k, `${path}/${tag}`) ?? '']));
    return { kind: REFERENCE_GROUPS[tag], accessKey: null, fields };
  }
  r.fail(`${path}`, `NFref must hold refNFe, refNFeSig, refNF, refNFP, refCTe or refECF, got ${tag || 'nothing'}`);
  return { kind: 'NFE', accessKey: null, fields: null };
}

function readIde(r: Reader, node: XNode | null, path: string): NfeIde {
  if (!node) r.fail(path, 'ide is required');
  const n = node ?? {};
  const issuedAt = r.text(n, 'dhEmi', path) ?? r.text(n, 'dEmi', path);
  if (!issuedAt) r.fail(`${path}/dhEmi`, 'dhEmi is required');
  else if (!DATE_TIME.test(issuedAt) || Number.isNaN(Date.parse(issuedAt)))
    r.fail(`${path}/dhEmi`, `dhEmi must be a date-time (AAAA-MM-DDThh:mm:ssTZD), got "${issuedAt.slice(0, 30)}"`);
  const references = r.nodes(n, 'NFref').map((ref, i) => readReference(r, ref, `${path}/NFref[${i + 1}]`));
  const gov = r.node(n, 'gCompraGov', path);
  const gp = `${path}/gCompraGov`;
  const advance = r.node(n, 'gPagAntecipado', path);
  return {
    ufCode: r.required(n, 'cUF', path),
    randomCode: r.required(n, 'cNF', path),
    operationNature: r.text(n, 'natOp', path),
    model: r.required(n, 'mod', path),
    series: r.required(n, 'serie', path),
    number: r.required(n, 'nNF', path),
    issuedAt: issuedAt ?? '',
    exitAt: r.text(n, 'dhSaiEnt', path) ?? r.text(n, 'dSaiEnt', path),
    operationType: r.text(n, 'tpNF', path),
    destination: r.text(n, 'idDest', path),
    emissionType: r.required(n, 'tpEmis', path),
    checkDigit: r.required(n, 'cDV', path),
    environment: r.required(n, 'tpAmb', path),
    purpose: r.text(n, 'finNFe', path),
    finalConsumer: r.text(n, 'indFinal', path),
    presence: r.text(n, 'indPres', path),
    paymentIndicator: r.text(n, 'indPag', path),
    referencedKeys: references.filter((ref) => ref.kind === 'NFE' && ref.accessKey).map((ref) => ref.accessKey!),
    references,
    ibsCbsMunicipality: r.text(n, 'cMunFGIBS', path),
    debitNoteType: r.text(n, 'tpNFDebito', path),
    creditNoteType: r.text(n, 'tpNFCredito', path),
    governmentPurchase: gov
      ? {
          entityType: r.required(gov, 'tpEnteGov', gp),
          reductionRate: r.requiredDec(gov, 'pRedutor', gp),
          operationType: r.text(gov, 'tpOperGov', gp),
        }
      : null,
    advancePaymentKeys: advance
      ? r
          .nodes(advance, 'refNFe')
          .map((k) => String(k._ ?? '').trim())
          .filter(Boolean)
      : [],
  };
}

function readItem(r: Reader, det: XNode, index: number, path: string): NfeItem {
  const p = `${path}/det[${index + 1}]`;
  const nItem = Number(r.attr(det, 'nItem'));
  if (!Number.isInteger(nItem) || nItem < 1) r.fail(`${p}/@nItem`, 'nItem must be a positive integer');
  const prod = r.node(det, 'prod', p);
  if (!prod) r.fail(`${p}/prod`, 'prod is required');
  const pp = `${p}/prod`;
  const pr = prod ?? {};
  const imposto = r.node(det, 'imposto', p);
  const ip = `${p}/imposto`;
  const devol = r.node(det, 'impostoDevol', p);
  const referenced = r.node(det, 'DFeReferenciado', p);
  const rp = `${p}/DFeReferenciado`;
  const referencedLine = referenced ? r.text(referenced, 'nItem', rp) : null;
  return {
    lineNumber: Number.isInteger(nItem) && nItem > 0 ? nItem : index + 1,
    code: r.required(pr, 'cProd', pp),
    gtin: r.text(pr, 'cEAN', pp),
    description: r.required(pr, 'xProd', pp),
    ncm: r.text(pr, 'NCM', pp),
    cest: r.text(pr, 'CEST', pp),
    cfop: r.required(pr, 'CFOP', pp),
    unit: r.required(pr, 'uCom', pp),
    quantity: r.requiredDec(pr, 'qCom', pp),
    unitPrice: r.requiredDec(pr, 'vUnCom', pp),
    total: r.requiredDec(pr, 'vProd', pp),
    taxableGtin: r.text(pr, 'cEANTrib', pp),
    taxableUnit: r.text(pr, 'uTrib', pp),
    taxableQuantity: r.dec(pr, 'qTrib', pp),
    taxableUnitPrice: r.dec(pr, 'vUnTrib', pp),
    freight: r.zero(pr, 'vFrete', pp),
    insurance: r.zero(pr, 'vSeg', pp),
    discount: r.zero(pr, 'vDesc', pp),
    otherExpenses: r.zero(pr, 'vOutro', pp),
    // indTot is mandatory in both layouts; absent is read as the common case (counts).
    countsInTotal: (r.text(pr, 'indTot', pp) ?? '1') === '1',
    purchaseOrder: r.text(pr, 'xPed', pp),
    purchaseOrderLine: r.text(pr, 'nItemPed', pp),
    additionalInfo: r.text(det, 'infAdProd', p),
    taxes: {
      estimatedTotal: r.dec(imposto, 'vTotTrib', ip),
      icms: readIcms(r, imposto, ip),
      ipi: readIpi(r, imposto, ip),
      importTax: readImportTax(r, imposto, ip),
      pis: readContribution(r, imposto, 'PIS', ip),
      cofins: readContribution(r, imposto, 'COFINS', ip),
      ipiReturned: devol ? r.dec(r.node(devol, 'IPI', `${p}/impostoDevol`), 'vIPIDevol', `${p}/impostoDevol/IPI`) : null,
      ibsCbs: readIbsCbs(r, imposto, ip),
      selectiveTax: readSelectiveTax(r, imposto, ip),
    },
    // DI/DUIMP of an import: the AFRMM (freight renewal surcharge) the importer paid, over its declarations.
    importAfrmm: r.nodes(pr, 'DI').reduce((s, di, i) => s.plus(r.zero(di, 'vAFRMM', `${pp}/DI[${i + 1}]`)), new Dec(0)),
    itemValue: r.dec(det, 'vItem', p),
    referencedDocument: referenced
      ? { accessKey: r.required(referenced, 'chaveAcesso', rp), lineNumber: referencedLine === null ? null : Number(referencedLine) }
      : null,
  };
}

function readTotals(r: Reader, total: XNode | null, path: string): NfeTotals {
  const t = r.node(total, 'ICMSTot', path);
  if (!t) r.fail(`${path}/ICMSTot`, 'ICMSTot is required');
  const p = `${path}/ICMSTot`;
  const n = t ?? {};
  const iss = r.node(total, 'ISSQNtot', path);
  return {
    icmsBase: r.zero(n, 'vBC', p),
    icms: r.zero(n, 'vICMS', p),
    icmsRelief: r.zero(n, 'vICMSDeson', p),
    fcpUfDest: r.zero(n, 'vFCPUFDest', p),
    icmsUfDest: r.zero(n, 'vICMSUFDest', p),
    icmsUfRemet: r.zero(n, 'vICMSUFRemet', p),
    fcp: r.zero(n, 'vFCP', p),
    icmsStBase: r.zero(n, 'vBCST', p),
    icmsSt: r.zero(n, 'vST', p),
    fcpSt: r.zero(n, 'vFCPST', p),
    fcpStRetained: r.zero(n, 'vFCPSTRet', p),
    products: r.requiredDec(n, 'vProd', p),
    freight: r.zero(n, 'vFrete', p),
    insurance: r.zero(n, 'vSeg', p),
    discount: r.zero(n, 'vDesc', p),
    importTax: r.zero(n, 'vII', p),
    ipi: r.zero(n, 'vIPI', p),
    ipiReturned: r.zero(n, 'vIPIDevol', p),
    pis: r.zero(n, 'vPIS', p),
    cofins: r.zero(n, 'vCOFINS', p),
    otherExpenses: r.zero(n, 'vOutro', p),
    invoice: r.requiredDec(n, 'vNF', p),
    estimatedTaxes: r.dec(n, 'vTotTrib', p),
    services: iss ? r.zero(iss, 'vServ', `${path}/ISSQNtot`) : new Dec(0),
    ibsCbs: readIbsCbsTotals(r, total, path),
    selectiveTax: readSelectiveTaxTotal(r, total, path),
    invoiceWithTaxes: r.dec(total, 'vNFTot', path),
  };
}

function readTransport(r: Reader, node: XNode | null, path: string): NfeTransport | null {
  if (!node) return null;
  const carrier = r.node(node, 'transporta', path);
  const cp = `${path}/transporta`;
  const vehicle = r.node(node, 'veicTransp', path);
  return {
    freightMode: r.text(node, 'modFrete', path),
    carrier: carrier
      ? {
          document: r.text(carrier, 'CNPJ', cp) ?? r.text(carrier, 'CPF', cp),
          name: r.text(carrier, 'xNome', cp),
          stateRegistration: r.text(carrier, 'IE', cp),
          uf: r.text(carrier, 'UF', cp),
        }
      : null,
    vehiclePlate: vehicle ? r.text(vehicle, 'placa', `${path}/veicTransp`) : null,
    volumes: r.nodes(node, 'vol').map((v, i) => {
      const vp = `${path}/vol[${i + 1}]`;
      return {
        quantity: r.text(v, 'qVol', vp),
        species: r.text(v, 'esp', vp),
        brand: r.text(v, 'marca', vp),
        netWeight: r.dec(v, 'pesoL', vp),
        grossWeight: r.dec(v, 'pesoB', vp),
      };
    }),
  };
}

function readBilling(r: Reader, node: XNode | null, path: string): NfeBilling | null {
  if (!node) return null;
  const fat = r.node(node, 'fat', path);
  const fp = `${path}/fat`;
  return {
    invoice: fat
      ? {
          number: r.text(fat, 'nFat', fp),
          original: r.dec(fat, 'vOrig', fp),
          discount: r.dec(fat, 'vDesc', fp),
          net: r.dec(fat, 'vLiq', fp),
        }
      : null,
    installments: r.nodes(node, 'dup').map((d, i) => {
      const dp = `${path}/dup[${i + 1}]`;
      const dueDate = r.text(d, 'dVenc', dp);
      if (dueDate !== null && (!DATE.test(dueDate) || Number.isNaN(Date.parse(dueDate))))
        r.fail(`${dp}/dVenc`, `dVenc must be a date AAAA-MM-DD, got "${dueDate.slice(0, 30)}"`);
      return { number: r.text(d, 'nDup', dp), dueDate, amount: r.requiredDec(d, 'vDup', dp) };
    }),
  };
}

function readPayments(r: Reader, node: XNode | null, path: string): { payments: NfePayment[]; change: Dec | null } {
  if (!node) return { payments: [], change: null };
  // 4.00: pag/detPag[]; 3.10 (NFC-e): pag[] with tPag/vPag directly.
  const details = node.detPag !== undefined ? r.nodes(node, 'detPag') : [node];
  return {
    payments: details.map((d, i) => {
      const dp = node.detPag !== undefined ? `${path}/detPag[${i + 1}]` : path;
      return {
        indicator: r.text(d, 'indPag', dp),
        method: r.text(d, 'tPag', dp),
        description: r.text(d, 'xPag', dp),
        amount: r.requiredDec(d, 'vPag', dp),
      };
    }),
    change: r.dec(node, 'vTroco', path),
  };
}

function readProtocol(r: Reader, node: XNode | null, path: string): NfeProtocol | null {
  if (!node) return null;
  const inf = r.node(node, 'infProt', path) ?? {};
  const p = `${path}/infProt`;
  return {
    version: r.attr(node, 'versao'),
    environment: r.text(inf, 'tpAmb', p),
    accessKey: r.text(inf, 'chNFe', p),
    receivedAt: r.text(inf, 'dhRecbto', p),
    protocolNumber: r.text(inf, 'nProt', p),
    digestValue: r.text(inf, 'digVal', p),
    status: r.text(inf, 'cStat', p),
    reason: r.text(inf, 'xMotivo', p),
    // Some authorities sign the protocol too (a Signature over infProt); fiscal-xml/signature.ts verifies it.
    signed: r.nodes(node, 'Signature').length > 0,
  };
}

const unsupported = (message: string, code = 'NFE_UNSUPPORTED_DOCUMENT') =>
  new AppError('invalid', code, message, { errors: [{ path: 'xml', message }] });

/** Reads the invoice from an already parsed tree (see parseXml). */
export function readNfe(tree: Record<string, unknown>): ParsedNfe {
  const rootName = Object.keys(tree)[0];
  if (rootName !== 'nfeProc' && rootName !== 'NFe')
    throw unsupported(`The XML root is <${rootName}>; an NF-e is <nfeProc> (or a bare <NFe>)`);
  const r = new Reader();
  const root = tree[rootName] as XNode;
  if (typeof root !== 'object' || root === null) throw unsupported(`<${rootName}> is empty`);
  const nfe = rootName === 'nfeProc' ? r.node(root, 'NFe', 'nfeProc') : root;
  const base = rootName === 'nfeProc' ? 'nfeProc/NFe' : 'NFe';
  if (!nfe) throw unsupported('nfeProc has no (single) NFe element');
  const inf = r.node(nfe, 'infNFe', base);
  if (!inf) throw unsupported('NFe has no (single) infNFe element');
  const version = r.attr(inf, 'versao') ?? '';
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
    throw unsupported(`Layout version "${version}" is not read; supported: ${SUPPORTED_VERSIONS.join(', ')}`, 'NFE_UNSUPPORTED_VERSION');
  }
  const p = `${base}/infNFe`;
  const id = r.attr(inf, 'Id') ?? '';
  if (!id.startsWith('NFe')) r.fail(`${p}/@Id`, 'Id must be "NFe" followed by the access key');

  const emit = r.node(inf, 'emit', p);
  if (!emit) r.fail(`${p}/emit`, 'emit is required');
  const dest = r.node(inf, 'dest', p);
  const dets = r.nodes(inf, 'det');
  if (!dets.length) r.fail(`${p}/det`, 'at least one det is required');
  const pag = r.nodes(inf, 'pag');
  const payments =
    pag.length > 1 ? pag.map((n, i) => readPayments(r, n, `${p}/pag[${i + 1}]`)) : [readPayments(r, pag[0] ?? null, `${p}/pag`)];
  const infAdic = r.node(inf, 'infAdic', p);
  const signatures = r.nodes(nfe, 'Signature');
  if (signatures.length > 1) r.fail(`${base}/Signature`, 'Signature must occur at most once');

  const parsed: ParsedNfe = {
    root: rootName,
    version,
    accessKey: id.replace(/^NFe/, ''),
    ide: readIde(r, r.node(inf, 'ide', p), `${p}/ide`),
    issuer: readParty(r, emit ?? {}, `${p}/emit`, 'enderEmit'),
    recipient: dest ? readParty(r, dest, `${p}/dest`, 'enderDest') : null,
    items: dets.map((d, i) => readItem(r, d, i, p)),
    totals: readTotals(r, r.node(inf, 'total', p), `${p}/total`),
    transport: readTransport(r, r.node(inf, 'transp', p), `${p}/transp`),
    billing: readBilling(r, r.node(inf, 'cobr', p), `${p}/cobr`),
    payments: payments.flatMap((x) => x.payments),
    change: payments.find((x) => x.change)?.change ?? null,
    additionalInfo: infAdic
      ? { fisco: r.text(infAdic, 'infAdFisco', `${p}/infAdic`), complementary: r.text(infAdic, 'infCpl', `${p}/infAdic`) }
      : null,
    protocol: rootName === 'nfeProc' ? readProtocol(r, r.node(root, 'protNFe', 'nfeProc'), 'nfeProc/protNFe') : null,
    hasSignature: signatures.length > 0,
  };
  const lines = new Set<number>();
  for (const item of parsed.items) {
    if (lines.has(item.lineNumber)) r.fail(`${p}/det`, `nItem ${item.lineNumber} occurs more than once`);
    lines.add(item.lineNumber);
  }
  if (r.errors.length) throw new ValidationError('The NF-e has missing or invalid fields', r.errors, 'NFE_INVALID_CONTENT');
  return parsed;
}

/** XML text → ParsedNfe (DOCTYPE refused, malformed → 400 with line/column, unreadable → 400). */
export async function parseNfe(xml: string): Promise<ParsedNfe> {
  return readNfe(await parseXml(xml));
}
