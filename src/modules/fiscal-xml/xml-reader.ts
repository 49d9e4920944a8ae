import { readXml } from './xml-document';
import { Dec } from '../../core/decimal';
import type { FieldError } from '../../core/errors';

/*
 * Reading an xml2js tree of an NF-e: single/repeated elements, text, decimals, attributes, each
 * problem collected with its layout path (nfeProc/NFe/infNFe/det[3]/prod/vProd) so the parser can
 * report them all at once. The CT-e parser reads with it too.
 */

export type XNode = Record<string, unknown>;
export const DECIMAL = /^-?\d+(\.\d+)?$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** dhEmi (with offset) or a 2.00-style dEmi date. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)?)?$/;

export const asArray = <T>(v: T | T[] | undefined | null): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

export class Reader {
  readonly errors: FieldError[] = [];

  fail(path: string, message: string): void {
    if (this.errors.length < 50) this.errors.push({ path, message });
  }

  /** The single child element `tag` (repeated → error). */
  node(parent: XNode | null | undefined, tag: string, path: string): XNode | null {
    const v = parent?.[tag];
    if (v === undefined || v === null) return null;
    if (Array.isArray(v)) {
      this.fail(`${path}/${tag}`, `${tag} must occur once`);
      return null;
    }
    return typeof v === 'object' ? (v as XNode) : ({ _: v } as XNode);
  }

  nodes(parent: XNode | null | undefined, tag: string): XNode[] {
    return asArray(parent?.[tag] as XNode | XNode[] | undefined).map((v) => (typeof v === 'object' ? v : ({ _: v } as XNode)));
  }

  /** Text of a child element; '' and absent → null. */
  text(parent: XNode | null | undefined, tag: string, path: string): string | null {
    const v = parent?.[tag];
    if (v === undefined || v === null) return null;
    if (Array.isArray(v)) {
      this.fail(`${path}/${tag}`, `${tag} must occur once`);
      return null;
    }
    const s = typeof v === 'object' ? (v as XNode)._ : v;
    if (s === undefined || s === null) return null;
    const t = String(s).trim();
    return t === '' ? null : t;
  }

  required(parent: XNode | null | undefined, tag: string, path: string): string {
    const t = this.text(parent, tag, path);
    if (t === null) this.fail(`${path}/${tag}`, `${tag} is required`);
    return t ?? '';
  }

  dec(parent: XNode | null | undefined, tag: string, path: string): Dec | null {
    const t = this.text(parent, tag, path);
    if (t === null) return null;
    if (!DECIMAL.test(t)) {
      this.fail(`${path}/${tag}`, `${tag} must be a decimal number, got "${t.slice(0, 30)}"`);
      return null;
    }
    return new Dec(t);
  }

  requiredDec(parent: XNode | null | undefined, tag: string, path: string): Dec {
    const d = this.dec(parent, tag, path);
    if (d === null && this.text(parent, tag, path) === null) this.fail(`${path}/${tag}`, `${tag} is required`);
    return d ?? new Dec(0);
  }

  /** Optional decimal read as zero when absent (totals fields that 3.10 does not have). */
  zero(parent: XNode | null | undefined, tag: string, path: string): Dec {
    return this.dec(parent, tag, path) ?? new Dec(0);
  }

  /** The child elements of a group (its attributes and text aside). */
  childTags(node: XNode | null | undefined): string[] {
    return Object.keys(node ?? {}).filter((k) => k !== '$' && k !== '_');
  }

  attr(node: XNode | null | undefined, name: string): string | null {
    const attrs = node?.$ as Record<string, string> | undefined;
    const v = attrs?.[name];
    return v === undefined ? null : String(v).trim();
  }
}

/*
 * Reading values out of a tree without collecting problems (a document already checked, or one whose
 * absent values have a default): the first element along a path of child names, its text, every
 * descendant of a name. A repeated element reads as its first occurrence.
 */
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/** The element reached through these child names (the root's name first when given the whole tree), or null. */
export function childAt(node: unknown, ...names: string[]): XNode | null {
  let at: unknown = node;
  for (const name of names) {
    if (!at || typeof at !== 'object') return null;
    at = first((at as XNode)[name]);
    if (at === undefined || at === null) return null;
  }
  if (at === undefined || at === null) return null;
  return typeof at === 'object' ? (at as XNode) : ({ _: at } as XNode);
}

/** Trimmed text of the element reached through these child names; absent or empty → null. */
export function textAt(node: unknown, ...names: string[]): string | null {
  const el = childAt(node, ...names);
  const t = el?._ === undefined || el._ === null ? '' : String(el._).trim();
  return t === '' ? null : t;
}

/** An attribute of an element, or null. */
export const attrOf = (node: XNode | null | undefined, name: string): string | null => {
  const v = (node?.$ as Record<string, string> | undefined)?.[name];
  return v === undefined ? null : String(v);
};

/** Every element named `name` below node, depth first (a tree keeps the order among same-named siblings). */
export function descendants(node: unknown, name: string, out: XNode[] = []): XNode[] {
  if (!node || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node as XNode)) {
    if (key === '$' || key === '_') continue;
    for (const v of asArray(value)) {
      if (key === name) out.push(typeof v === 'object' && v !== null ? (v as XNode) : ({ _: v } as XNode));
      descendants(v, name, out);
    }
  }
  return out;
}

/**
 * The number the Id of a voiding (inutilização) carries, "ID" + UF, year, CNPJ, model, series and
 * range: what its file is named after. Null when the XML is not a readable inutNFe/procInutNFe (the
 * caller names the file otherwise).
 */
export function voidingId(xml: string): string | null {
  let tree: Record<string, unknown>;
  try {
    tree = readXml(xml);
  } catch {
    return null;
  }
  const inf = childAt(tree, 'procInutNFe', 'inutNFe', 'infInut') ?? childAt(tree, 'inutNFe', 'infInut');
  return /^ID(\d+)$/.exec(attrOf(inf, 'Id') ?? '')?.[1] ?? null;
}
