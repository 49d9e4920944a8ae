import { ACCESS_KEY_PATTERN } from '../../../core/br-documents';
import { AppError, ValidationError } from '../../../core/errors';
import { parseXml, Reader, XNode } from '../../fiscal-xml';
import type { CteBilling, CteIcms, CteIde, CteParty, CtePayer, CteProtocol, ParsedCte } from './cte-types';
import { PAYER_ROLES } from './cte-types';

/*
 * cteProc (or a bare CTe) 4.00 → ParsedCte, through the NF-e module's safe XML reader (no DOCTYPE,
 * malformed → 400 with line and column) and its field reader. Structure problems are collected with
 * their layout path and reported together (400 CTE_INVALID_CONTENT); business checks live in the
 * validation report.
 */

export const SUPPORTED_VERSION = '4.00';
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)?$/;

const unsupported = (message: string, code = 'CTE_UNSUPPORTED_DOCUMENT') =>
  new AppError('invalid', code, message, { errors: [{ path: 'xml', message }] });

const ADDRESS_TAG: Record<string, string> = {
  rem: 'enderReme',
  exped: 'enderExped',
  receb: 'enderReceb',
  dest: 'enderDest',
  toma4: 'enderToma',
};

function readParty(r: Reader, node: XNode | null, tag: string, path: string): CteParty | null {
  if (!node) return null;
  const cnpj = r.text(node, 'CNPJ', path);
  const cpf = r.text(node, 'CPF', path);
  const foreign = node.idEstrangeiro !== undefined;
  const address = r.node(node, ADDRESS_TAG[tag] ?? 'enderEmit', path);
  return {
    documentKind: cnpj ? 'CNPJ' : cpf ? 'CPF' : foreign ? 'FOREIGN' : null,
    document: cnpj ?? cpf ?? (foreign ? (r.text(node, 'idEstrangeiro', path) ?? '') : null),
    name: r.text(node, 'xNome', path),
    tradeName: r.text(node, 'xFant', path),
    stateRegistration: r.text(node, 'IE', path),
    uf: address ? r.text(address, 'UF', `${path}/${ADDRESS_TAG[tag] ?? 'enderEmit'}`) : null,
    city: address ? r.text(address, 'xMun', `${path}/${ADDRESS_TAG[tag] ?? 'enderEmit'}`) : null,
  };
}

function readIde(r: Reader, node: XNode | null, path: string): CteIde {
  if (!node) r.fail(path, 'ide is required');
  const n = node ?? {};
  const issuedAt = r.text(n, 'dhEmi', path);
  if (!issuedAt) r.fail(`${path}/dhEmi`, 'dhEmi is required');
  else if (!DATE_TIME.test(issuedAt) || Number.isNaN(Date.parse(issuedAt)))
    r.fail(`${path}/dhEmi`, `dhEmi must be a date-time (AAAA-MM-DDThh:mm:ssTZD), got "${issuedAt.slice(0, 30)}"`);
  const toma3 = r.node(n, 'toma3', path);
  const toma4 = r.node(n, 'toma4', path);
  const payerCode = toma3 ? r.text(toma3, 'toma', `${path}/toma3`) : toma4 ? r.text(toma4, 'toma', `${path}/toma4`) : null;
  if (!toma3 && !toma4) r.fail(`${path}/toma3`, 'toma3 or toma4 (who pays the freight) is required');
  return {
    ufCode: r.required(n, 'cUF', path),
    randomCode: r.required(n, 'cCT', path),
    cfop: r.text(n, 'CFOP', path),
    operationNature: r.text(n, 'natOp', path),
    model: r.required(n, 'mod', path),
    series: r.required(n, 'serie', path),
    number: r.required(n, 'nCT', path),
    issuedAt: issuedAt ?? '',
    emissionType: r.required(n, 'tpEmis', path),
    checkDigit: r.required(n, 'cDV', path),
    environment: r.required(n, 'tpAmb', path),
    cteType: r.text(n, 'tpCTe', path),
    serviceType: r.text(n, 'tpServ', path),
    modal: r.text(n, 'modal', path),
    start: { city: r.text(n, 'xMunIni', path), uf: r.text(n, 'UFIni', path) },
    end: { city: r.text(n, 'xMunFim', path), uf: r.text(n, 'UFFim', path) },
    payerCode,
  };
}

/** The one group inside imp/ICMS, with the base, rate and value whatever the group names them. */
function readIcms(r: Reader, imp: XNode | null, path: string): CteIcms | null {
  const icms = r.node(imp, 'ICMS', path);
  if (!icms) return null;
  const groups = Object.keys(icms).filter((k) => k !== '$' && k !== '_');
  if (groups.length !== 1) {
    r.fail(`${path}/ICMS`, 'ICMS must hold exactly one tax group');
    return null;
  }
  const group = groups[0];
  const p = `${path}/ICMS/${group}`;
  const g = r.node(icms, group, `${path}/ICMS`) ?? {};
  const outra = group === 'ICMSOutraUF';
  return {
    group,
    cst: r.text(g, 'CST', p),
    base: r.dec(g, outra ? 'vBCOutraUF' : 'vBC', p),
    rate: r.dec(g, outra ? 'pICMSOutraUF' : 'pICMS', p),
    value: r.dec(g, outra ? 'vICMSOutraUF' : 'vICMS', p),
    stRetained: r.dec(g, 'vICMSSTRet', p),
  };
}

function readBilling(r: Reader, node: XNode | null, path: string): CteBilling | null {
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

function readProtocol(r: Reader, node: XNode | null, path: string): CteProtocol | null {
  if (!node) return null;
  const inf = r.node(node, 'infProt', path) ?? {};
  const p = `${path}/infProt`;
  return {
    version: r.attr(node, 'versao'),
    environment: r.text(inf, 'tpAmb', p),
    accessKey: r.text(inf, 'chCTe', p),
    receivedAt: r.text(inf, 'dhRecbto', p),
    protocolNumber: r.text(inf, 'nProt', p),
    digestValue: r.text(inf, 'digVal', p),
    status: r.text(inf, 'cStat', p),
    reason: r.text(inf, 'xMotivo', p),
  };
}

function payerOf(
  r: Reader,
  ide: XNode | null,
  parties: Record<string, CteParty | null>,
  code: string | null,
  path: string,
): CtePayer | null {
  const role = code === null ? undefined : PAYER_ROLES[code];
  if (code !== null && !role) r.fail(`${path}/toma`, `toma must be 0 to 4, got "${code.slice(0, 10)}"`);
  if (!role) return null;
  if (role === 'OTHER') {
    const party = readParty(r, r.node(ide, 'toma4', path), 'toma4', `${path}/toma4`);
    return party ? { ...party, role } : null;
  }
  const party = parties[{ SENDER: 'rem', SHIPPER: 'exped', RECEIVER: 'receb', RECIPIENT: 'dest' }[role]];
  return party ? { ...party, role } : null;
}

/** Reads the CT-e from an already parsed tree (see parseXml). */
export function readCte(tree: Record<string, unknown>): ParsedCte {
  const rootName = Object.keys(tree)[0];
  if (rootName !== 'cteProc' && rootName !== 'CTe')
    throw unsupported(`The XML root is <${rootName}>; a CT-e is <cteProc> (or a bare <CTe>)`);
  const r = new Reader();
  const root = tree[rootName] as XNode;
  if (typeof root !== 'object' || root === null) throw unsupported(`<${rootName}> is empty`);
  const cte = rootName === 'cteProc' ? r.node(root, 'CTe', 'cteProc') : root;
  const base = rootName === 'cteProc' ? 'cteProc/CTe' : 'CTe';
  if (!cte) throw unsupported('cteProc has no (single) CTe element');
  const inf = r.node(cte, 'infCte', base);
  if (!inf) throw unsupported('CTe has no (single) infCte element');
  const version = r.attr(inf, 'versao') ?? '';
  if (version !== SUPPORTED_VERSION)
    throw unsupported(`Layout version "${version}" is not read; supported: ${SUPPORTED_VERSION}`, 'CTE_UNSUPPORTED_VERSION');
  const p = `${base}/infCte`;
  const id = r.attr(inf, 'Id') ?? '';
  if (!id.startsWith('CTe')) r.fail(`${p}/@Id`, 'Id must be "CTe" followed by the access key');

  const ideNode = r.node(inf, 'ide', p);
  const ide = readIde(r, ideNode, `${p}/ide`);
  const emit = r.node(inf, 'emit', p);
  if (!emit) r.fail(`${p}/emit`, 'emit is required');
  const issuer = readParty(r, emit ?? {}, 'emit', `${p}/emit`)!;
  const parties = Object.fromEntries(
    ['rem', 'exped', 'receb', 'dest'].map((tag) => [tag, readParty(r, r.node(inf, tag, p), tag, `${p}/${tag}`)]),
  );
  const vPrest = r.node(inf, 'vPrest', p);
  if (!vPrest) r.fail(`${p}/vPrest`, 'vPrest is required');
  const vp = `${p}/vPrest`;
  const imp = r.node(inf, 'imp', p);
  const norm = r.node(inf, 'infCTeNorm', p);
  const np = `${p}/infCTeNorm`;
  const carga = r.node(norm, 'infCarga', np);
  const infDoc = r.node(norm, 'infDoc', np);
  const nfeKeys = r.nodes(infDoc, 'infNFe').map((n, i) => r.required(n, 'chave', `${np}/infDoc/infNFe[${i + 1}]`));
  const signatures = r.nodes(cte, 'Signature');
  if (signatures.length > 1) r.fail(`${base}/Signature`, 'Signature must occur at most once');

  const parsed: ParsedCte = {
    root: rootName,
    version,
    accessKey: id.replace(/^CTe/, ''),
    ide,
    issuer: { ...issuer, taxRegime: r.text(emit, 'CRT', `${p}/emit`) },
    sender: parties.rem,
    shipper: parties.exped,
    receiver: parties.receb,
    recipient: parties.dest,
    payer: payerOf(r, ideNode, parties, ide.payerCode, `${p}/ide`),
    values: {
      serviceTotal: r.requiredDec(vPrest, 'vTPrest', vp),
      receivable: r.requiredDec(vPrest, 'vRec', vp),
      components: r
        .nodes(vPrest, 'Comp')
        .map((c, i) => ({ name: r.text(c, 'xNome', `${vp}/Comp[${i + 1}]`), value: r.requiredDec(c, 'vComp', `${vp}/Comp[${i + 1}]`) })),
    },
    icms: readIcms(r, imp, `${p}/imp`),
    estimatedTaxes: r.dec(imp, 'vTotTrib', `${p}/imp`),
    cargo: carga
      ? {
          value: r.dec(carga, 'vCarga', `${np}/infCarga`),
          mainProduct: r.text(carga, 'proPred', `${np}/infCarga`),
          quantities: r.nodes(carga, 'infQ').map((q, i) => {
            const qp = `${np}/infCarga/infQ[${i + 1}]`;
            return { unitCode: r.text(q, 'cUnid', qp), measure: r.text(q, 'tpMed', qp), quantity: r.requiredDec(q, 'qCarga', qp) };
          }),
        }
      : null,
    nfeKeys,
    billing: readBilling(r, r.node(norm, 'cobr', np), `${np}/cobr`),
    protocol: rootName === 'cteProc' ? readProtocol(r, r.node(root, 'protCTe', 'cteProc'), 'cteProc/protCTe') : null,
    hasSignature: signatures.length > 0,
  };
  nfeKeys.forEach((k, i) => {
    if (k && !ACCESS_KEY_PATTERN.test(k))
      r.fail(`${np}/infDoc/infNFe[${i + 1}]/chave`, `chave must be a 44-character NF-e access key, got "${k.slice(0, 50)}"`);
  });
  if (r.errors.length) throw new ValidationError('The CT-e has missing or invalid fields', r.errors, 'CTE_INVALID_CONTENT');
  return parsed;
}

/** XML text → ParsedCte (DOCTYPE refused, malformed → 400 with line/column, unreadable → 400). */
export async function parseCte(xml: string): Promise<ParsedCte> {
  return readCte(await parseXml(xml));
}
