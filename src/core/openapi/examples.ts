import type { ObjectSchema, Schema } from 'joi';
import type { ResourceType } from '../hashids';
import { exampleIdsOf } from './example-ids';

/*
 * A realistic, valid example of a request body, built from the route's own joi schema and checked
 * against it: the OpenAPI document shows it (Swagger UI's "Try it out" starts from it), so a reader's
 * first call passes validation. Every value is tried against the field's own schema and the first
 * candidate it accepts is kept: a field's `.example()`, its allowed values, then values chosen by its
 * rules (hashid, exact decimal, date, CPF/CNPJ, pattern) and by its name (uf → SP, unit → UN, cfop →
 * 1102…). An object takes its required keys, plus the optional ones that carry an example; when the
 * object then fails (one of two keys required, say), optional keys are added until it passes.
 * `tests/core/request-examples.test.ts` validates every route's example; one that cannot be built
 * (a pattern none of the candidates meets) is named there and wants a `.example()` on the field or a
 * RouteSchema.example.
 */

type Desc = {
  type?: string;
  flags?: Record<string, any>;
  rules?: { name: string; args?: Record<string, any> }[];
  allow?: unknown[];
  examples?: unknown[];
  metas?: Record<string, any>[];
};

interface JoiInternals {
  $_terms: { keys?: { key: string; schema: Schema }[] | null; items?: Schema[]; matches?: { schema?: Schema }[] };
}

/** The 44-digit access key of an NF-e (SP, 2026-03, the example CNPJ, model 55, series 1, number 1234) with its mod-11 check digit. */
function accessKey(): string {
  const base = '35' + '2603' + '11222333000181' + '55' + '001' + '000001234' + '1' + '10000034';
  let sum = 0;
  let weight = 2;
  for (let i = base.length - 1; i >= 0; i--) {
    sum += Number(base[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return base + String(dv >= 10 ? 0 : dv);
}

/** Values by field name (lower-cased, last segment), tried before the generic ones. */
const BY_NAME: [RegExp, unknown[]][] = [
  [/^uf$/, ['SP']],
  [/unit$/, ['UN', 'CX']],
  [/cfop/, ['1102', '5102']],
  [/ncm/, ['09012100']],
  [/cest/, ['1709600']],
  [/accesskey/, [accessKey()]],
  // A supplier is another company than the demo's (a supplier of the demo: Distribuidora de Bebidas Paulista).
  [/^supplierdocument$/, ['60746948000112']],
  [/^(document|issuerdocument|cnpj|taxid)$/, ['11222333000181']],
  [/cpf/, ['52998224725']],
  [/email/, ['compras@mercadinho-exemplo.com.br']],
  [/phone/, ['11987654321']],
  [/(zip|cep)/, ['01310100']],
  // NFC-e: the UF's addresses (SP, homologação), not a webhook's.
  [/^qrcodeurl$/, ['https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode']],
  [/^consulturl$/, ['https://www.homologacao.nfce.fazenda.sp.gov.br/consulta']],
  [/url$/, ['https://erp.example.com.br/hooks/backoffice']],
  [/^gtin$|ean/, ['7891000100103']],
  // Séries and numbers are numbers where the field is one (the string only for a string field).
  [/series$/, [1, '1']],
  [/^nextnumber$/, [1235]],
  [/number$/, [1234, '1234']],
  [/^(first|last)$/, [1234]],
  [/code$/, ['CAF-500', 'PIX', '1']],
  [/(name)$/, ['Café torrado 500 g', 'Distribuidora Exemplo Ltda']],
  [/description$/, ['Café torrado e moído 500 g']],
  [/reason$/, ['Mercadoria chegou avariada']],
  [/justification$/, ['Pedido cancelado pelo cliente antes da entrega da mercadoria']],
  [/^correction$/, ['Corrige o endereço de entrega: Rua Augusta, 1500, Consolação, São Paulo']],
  [/^password$/, ['senha-do-certificado']],
  [/^tableversion$/, ['25.2.B']],
  [/(note|notes|comment)$/, ['Conferido por Ana no recebimento']],
  [/search$/, ['café']],
  [/method$/, ['PIX']],
  [/xml$/, ['<?xml version="1.0" encoding="UTF-8"?><nfeProc versao="4.00" xmlns="http://www.portalfiscal.inf.br/nfe"/>']],
  [/quantity$/, [12, 1]],
  [/(price|cost)$/, [18.9, 1]],
  [/(amount|total|value)$/, [150, 1]],
  [/(percent|pct|rate)$/, [5, 1]],
  [/factor$/, [12, 1]],
  [/(version)$/, [1]],
];

const GENERIC_STRINGS = ['Café torrado 500 g', 'SP', 'UN', '1234', '1', 'ABC-123', 'A', '12345678', '2026-03-14', 'PIX'];

const descOf = (s: Schema) => s.describe() as Desc;
const metaOf = (d: Desc) => Object.assign({}, ...(d.metas ?? [])) as Record<string, any>;
/** A field whose rules refer to its siblings cannot be checked alone: it is taken and the object is checked. */
function accepts(schema: Schema, value: unknown): boolean {
  try {
    return !schema.validate(value).error;
  } catch {
    return value !== undefined;
  }
}

const SCALE_EXAMPLE: Record<number, number> = { 2: 150, 4: 12, 6: 12, 10: 18.9 };

function candidates(schema: Schema, name: string): unknown[] {
  const d = descOf(schema);
  const meta = metaOf(d);
  const out: unknown[] = [];
  if (d.examples?.length) out.push(...d.examples);
  if (meta.example !== undefined) out.push(meta.example);
  if (d.flags?.only) out.push(...(d.allow ?? []).filter((v) => v !== null && v !== ''));
  if (meta.hashid) out.push(...exampleIdsOf(meta.hashid as ResourceType));
  const path = name.toLowerCase().split('.');
  const key = path[path.length - 1];
  if (/name$/.test(key) && path.slice(0, -1).some((p) => /(supplier|customer|seller|carrier|issuer|party)/.test(p)))
    out.push('Distribuidora Exemplo Ltda', 'Maria da Silva');
  // A supplier's document is another company's than the demo's own.
  if (key === 'document' && path.slice(0, -1).some((p) => /supplier/.test(p))) out.push('60746948000112');
  for (const [re, values] of BY_NAME) if (re.test(key)) out.push(...values);
  if (meta.decimal !== undefined) out.push(SCALE_EXAMPLE[meta.decimal as number] ?? 1, 1, 0.5, 0, Number(meta.maximum));
  if (meta.format === 'date') out.push('2026-03-14');
  if (meta.format === 'date-time') out.push('2026-03-14T13:45:00Z');
  switch (d.type) {
    case 'number': {
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      out.push(1, 10, 2, ...(typeof min === 'number' ? [min] : []), 0);
      break;
    }
    case 'boolean':
      out.push(true, false);
      break;
    case 'string': {
      if (d.rules?.some((r) => r.name === 'custom' && r.args?.description === 'cpf/cnpj')) out.push('11222333000181', '52998224725');
      const len = d.rules?.find((r) => r.name === 'length')?.args?.limit;
      const pattern = d.rules?.find((r) => r.name === 'pattern')?.args?.regex;
      if (typeof len === 'number') out.push('1'.repeat(len), 'A'.repeat(len));
      if (pattern) out.push(...fromPattern(String(pattern)));
      out.push(...GENERIC_STRINGS);
      const min = d.rules?.find((r) => r.name === 'min')?.args?.limit;
      if (typeof min === 'number') out.push('Exemplo '.repeat(Math.ceil(min / 8)).slice(0, Math.max(min, 1)));
      break;
    }
  }
  return out;
}

/** A few strings meeting simple patterns: digits or letters of a fixed or bounded length. */
function fromPattern(source: string): string[] {
  const body = source.replace(/^\/\^?|\$?\/[a-z]*$/g, '');
  const out: string[] = [];
  const m = /^\\d\{(\d+)(?:,(\d+))?\}$/.exec(body) ?? /^\[0-9\]\{(\d+)(?:,(\d+))?\}$/.exec(body);
  if (m) out.push('1234567890123456789012345678901234567890123456'.slice(0, Number(m[1])));
  const letters = /^\[A-Z\]\{(\d+)(?:,(\d+))?\}$/.exec(body);
  if (letters) out.push('SP'.padEnd(Number(letters[1]), 'X'));
  const alnum = /^\[(?:A-Z0-9|0-9A-Z|A-Za-z0-9|a-zA-Z0-9)[^\]]*\]\{(\d+)(?:,(\d+))?\}$/.exec(body);
  if (alnum) out.push('A1B2C3D4E5F6G7H8I9J0'.slice(0, Number(alnum[1])));
  if (/^\\d\+$/.test(body) || body === '\\d+(\\.\\d+)?' || body === '-?\\d+(\\.\\d+)?') out.push('10');
  return out;
}

/** An example of `schema` (field `name`), valid when a candidate is; `undefined` when none is. */
export function exampleOf(schema: Schema, name = ''): unknown {
  const d = descOf(schema);
  if (d.type === 'object') return objectExample(schema as ObjectSchema, d, name);
  if (d.type === 'array') {
    const items = (schema as unknown as JoiInternals).$_terms.items ?? [];
    const item = items.length ? exampleOf(items[0], singular(name)) : 'Café torrado 500 g';
    const min = d.rules?.find((r) => r.name === 'min')?.args?.limit ?? 1;
    let list = Array.from({ length: Math.max(1, min) }, () => item);
    // Items that must differ (unique ids): distinct values the item accepts.
    if (!accepts(schema, list) && items.length) {
      const distinct = candidates(items[0], singular(name)).filter((c, i, all) => all.indexOf(c) === i && accepts(items[0], c));
      if (distinct.length >= Math.max(1, min)) list = distinct.slice(0, Math.max(1, min));
    }
    return accepts(schema, list) || !d.examples?.length ? list : d.examples[0];
  }
  if (d.type === 'alternatives') {
    const tried = candidates(schema, name).find((c) => accepts(schema, c));
    if (tried !== undefined) return tried;
    for (const m of (schema as unknown as JoiInternals).$_terms.matches ?? []) {
      if (!m.schema) continue;
      const value = exampleOf(m.schema, name);
      if (value !== undefined && accepts(schema, value)) return value;
    }
    return undefined;
  }
  return candidates(schema, name).find((c) => accepts(schema, c));
}

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

function objectExample(schema: ObjectSchema, d: Desc, name: string): Record<string, unknown> | undefined {
  if (d.examples?.length && accepts(schema, d.examples[0])) return d.examples[0] as Record<string, unknown>;
  const keys = (schema as unknown as JoiInternals).$_terms.keys ?? [];
  const required: Record<string, unknown> = {};
  const optional: { key: string; value: unknown; explicit: boolean }[] = [];
  for (const { key, schema: child } of keys) {
    const cd = descOf(child);
    if (cd.flags?.presence === 'forbidden') continue;
    const value = exampleOf(child, name ? `${name}.${key}` : key);
    if (cd.flags?.presence === 'required') {
      if (value !== undefined) required[key] = value;
    } else if (value !== undefined) {
      optional.push({ key, value, explicit: !!cd.examples?.length });
    }
  }
  let out: Record<string, unknown> = { ...required };
  for (const o of optional.filter((x) => x.explicit)) {
    const next = { ...out, [o.key]: o.value };
    if (accepts(schema, next) || !accepts(schema, out)) out = next;
  }
  // One of several keys required (xor/or), or a key a rule of the object wants: add optional keys until it passes.
  for (const o of optional) {
    if (accepts(schema, out)) break;
    if (o.key in out) continue;
    const next = { ...out, [o.key]: o.value };
    if (errorCount(schema, next) < errorCount(schema, out)) out = next;
  }
  return out;
}

function errorCount(schema: Schema, value: unknown): number {
  try {
    return schema.validate(value, { abortEarly: false }).error?.details.length ?? 0;
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}
