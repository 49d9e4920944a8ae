import { AppError } from '../../core/errors';

/*
 * The one way XML text becomes a tree in this module. DOCTYPE and entity declarations are refused
 * before any parser sees the text (no XXE, no entity expansion bombs: an NF-e never has them), and a
 * document that is not well-formed is refused with the parser's line and column.
 */

const FORBIDDEN = /<!(DOCTYPE|ENTITY)\b/i;

/** 1-based line and column of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

export const hasDoctype = (xml: string): boolean => FORBIDDEN.test(xml);

export function assertNoDoctype(xml: string): void {
  const match = FORBIDDEN.exec(xml);
  if (!match) return;
  const at = position(xml, match.index);
  throw new AppError(
    'invalid',
    'XML_DOCTYPE_FORBIDDEN',
    `XML with a ${match[1].toUpperCase()} declaration is not accepted (line ${at.line}, column ${at.column})`,
    {
      ...at,
      errors: [{ path: 'xml', message: `${match[1].toUpperCase()} declarations are not allowed` }],
    },
  );
}

/** sax reports "…\nLine: 2\nColumn: 14\nChar: x" with a 0-based line. */
function malformed(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err);
  const [reason] = message.split('\n');
  const line = /Line:\s*(\d+)/.exec(message);
  const column = /Column:\s*(\d+)/.exec(message);
  const at = line && column ? { line: Number(line[1]) + 1, column: Number(column[1]) } : {};
  const where = line && column ? ` (line ${Number(line[1]) + 1}, column ${column[1]})` : '';
  return new AppError('invalid', 'MALFORMED_XML', `The XML is not well-formed: ${reason}${where}`, {
    ...at,
    errors: [{ path: 'xml', message: `${reason}${where}` }],
  });
}

/** The part of sax's parser (the tokenizer under xml2js) that the tree builder below and the signature's reader (signed-outline.ts) drive. */
export interface SaxParser {
  onerror: (err: Error) => void;
  onopentag: (node: { name: string; attributes: Record<string, string> }) => void;
  onclosetag: () => void;
  ontext: (text: string) => void;
  oncdata: (text: string) => void;
  onopencdata: () => void;
  onclosecdata: () => void;
  onprocessinginstruction: (pi: { name: string; body: string }) => void;
  ondoctype: () => void;
  onsgmldeclaration: () => void;
  /** With the `position` option: where the current tag starts, and how far the parser has read. */
  startTagPosition: number;
  position: number;
  resume: () => SaxParser;
  write: (text: string) => SaxParser;
  close: () => SaxParser;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- sax ships no typings; the shape used is declared above
export const sax = require('sax') as { parser: (strict: boolean, options: object) => SaxParser };

/** xml2js's processors.stripPrefix. */
const PREFIX = /(?!xmlns)^.*:/;
const stripPrefix = (name: string) => (name.indexOf(':') === -1 ? name : name.replace(PREFIX, ''));
const WHITESPACE = /^\s*$/;

/**
 * Names the fast builder leaves to `bookkeepingTree`: the keys xml2js keeps its own state under
 * ('_', '$', 'cdata') and Object.prototype's (xml2js's `in` tests see them). No NF-e element is named so.
 */
const ODD = new Set(['_', '$', 'cdata', ...Object.getOwnPropertyNames(Object.prototype)]);
const odd = (name: string) => ODD.has(name);

interface Frame {
  name: string;
  obj: Record<string, unknown>;
  /** obj has no key yet (no attributes, no child): counted, not Object.keys'd, on every close. */
  empty: boolean;
  text: string;
  cdata: boolean;
}

/**
 * The tree xml2js builds (explicitArray false, explicitRoot, prefixes stripped, text trimmed, strict),
 * built straight from sax's events (xml2js's own handlers add and delete bookkeeping properties on
 * every node and define each property with Object.defineProperty, which made them more than half of
 * an NF-e's parse). Same tokenizer, same first error, same shapes and key order; returns undefined
 * for a document with an odd name (see `odd`), which `bookkeepingTree` then reads.
 */
function saxTree(text: string): Record<string, unknown> | null | undefined {
  const parser = sax.parser(true, { trim: false, normalize: false, xmlns: false });
  const stack: Frame[] = [];
  let result: Record<string, unknown> | null = null;
  let ended = false;
  let error: Error | null = null;
  let unusual = false;
  parser.onerror = (err) => {
    parser.resume();
    if (!ended && !error) error = err;
  };
  parser.onopentag = (node) => {
    const obj: Record<string, unknown> = {};
    let attrs: Record<string, string> | null = null;
    for (const key in node.attributes) {
      if (!Object.prototype.hasOwnProperty.call(node.attributes, key)) continue;
      const name = stripPrefix(key);
      if (name === '__proto__') unusual = true;
      (attrs ??= {})[name] = node.attributes[key];
    }
    if (attrs) obj.$ = attrs;
    const name = stripPrefix(node.name);
    if (odd(name)) unusual = true;
    stack.push({ name, obj, empty: !attrs, text: '', cdata: false });
  };
  parser.onclosetag = () => {
    const frame = stack.pop()!;
    let value: unknown = frame.obj;
    const empty = frame.empty;
    if (WHITESPACE.test(frame.text) && !frame.cdata) {
      if (empty) value = frame.text;
    } else {
      const t = frame.text.trim();
      value = empty ? t : { _: t, ...frame.obj };
    }
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.empty = false;
      const p = parent.obj;
      if (!(frame.name in p)) p[frame.name] = value;
      else {
        if (!(p[frame.name] instanceof Array)) p[frame.name] = [p[frame.name]];
        (p[frame.name] as unknown[]).push(value);
      }
    } else if (!ended && !error) {
      result = { [frame.name]: value };
      ended = true;
    }
  };
  parser.ontext = (chunk) => {
    const frame = stack[stack.length - 1];
    if (frame) frame.text += chunk;
  };
  parser.oncdata = (chunk) => {
    const frame = stack[stack.length - 1];
    if (frame) {
      frame.text += chunk;
      frame.cdata = true;
    }
  };
  try {
    parser.write(text).close();
  } catch (err) {
    if (!ended && !error) error = err as Error;
  }
  if (unusual) return undefined;
  // whichever came first decides, as with xml2js (an error after the root closed is not reported)
  if (error) throw error;
  return ended ? result : null;
}

const defineProperty = (obj: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });

/**
 * xml2js's own handlers, step for step, for the documents `saxTree` leaves aside: an element named
 * '_', '$', 'cdata' or after an Object.prototype key collides with the bookkeeping xml2js keeps on
 * each node ('_' its text, 'cdata', '#name'), and only doing the same steps gives the same tree (or
 * the same TypeError xml2js throws on such a collision).
 */
/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- xml2js's nodes change shape as it builds them (a text that a child named '_' turns into an array) */
function bookkeepingTree(text: string): Record<string, unknown> | null {
  const charkey = '_';
  const attrkey = '$';
  const parser = sax.parser(true, { trim: false, normalize: false, xmlns: false });
  const stack: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- see above
  let result: Record<string, unknown> | null = null;
  let ended = false;
  let error: Error | null = null;
  const assignOrPush = (obj: Record<string, unknown>, key: string, newValue: unknown) => {
    if (!(key in obj)) defineProperty(obj, key, newValue);
    else {
      if (!(obj[key] instanceof Array)) defineProperty(obj, key, [obj[key]]);
      (obj[key] as unknown[]).push(newValue);
    }
  };
  parser.onerror = (err) => {
    parser.resume();
    if (!ended && !error) error = err;
  };
  parser.onopentag = (node) => {
    const obj: Record<string, unknown> = {};
    obj[charkey] = '';
    for (const key in node.attributes) {
      if (!Object.prototype.hasOwnProperty.call(node.attributes, key)) continue;
      if (!(attrkey in obj)) obj[attrkey] = {};
      defineProperty(obj[attrkey] as Record<string, unknown>, stripPrefix(key), node.attributes[key]);
    }
    obj['#name'] = stripPrefix(node.name);
    stack.push(obj);
  };
  parser.onclosetag = () => {
    // named as in xml2js: the TypeError a collision raises names the expression ("obj[charkey].match …")
    let obj = stack.pop()!;
    const nodeName = obj['#name'] as string;
    delete obj['#name'];
    let cdata: unknown;
    if (obj.cdata === true) {
      cdata = obj.cdata;
      delete obj.cdata;
    }
    const s = stack[stack.length - 1];
    let emptyStr: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
    if (obj[charkey].match(/^\s*$/) && !cdata) {
      emptyStr = obj[charkey];
      delete obj[charkey];
    } else {
      obj[charkey] = obj[charkey].trim();
      if (Object.keys(obj).length === 1 && charkey in obj) obj = obj[charkey];
    }
    if (typeof obj === 'object' && obj !== null && Object.keys(obj).length === 0) obj = emptyStr;
    if (stack.length > 0) assignOrPush(s, nodeName, obj);
    else if (!ended && !error) {
      result = {};
      defineProperty(result, nodeName, obj);
      ended = true;
    }
  };
  parser.ontext = (chunk) => {
    const s = stack[stack.length - 1];
    if (s) s[charkey] += chunk;
  };
  parser.oncdata = (chunk) => {
    const s = stack[stack.length - 1];
    if (s) {
      s[charkey] += chunk;
      s.cdata = true;
    }
  };
  try {
    parser.write(text).close();
  } catch (err) {
    if (!ended && !error) error = err as Error;
  }
  if (error) throw error;
  return ended ? result : null;
}
/* eslint-enable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */

/**
 * Parses XML text into xml2js's tree: `{ rootName: node }`, attributes under `$`, text under `_`.
 * Refuses a DOCTYPE (XML_DOCTYPE_FORBIDDEN) and what is not well-formed (MALFORMED_XML).
 */
export function readXml(xml: string): Record<string, unknown> {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  assertNoDoctype(text);
  if (!text.trim()) throw malformed(new Error('Empty document'));
  let tree: unknown;
  try {
    tree = saxTree(text);
    if (tree === undefined) tree = bookkeepingTree(text);
  } catch (err) {
    throw malformed(err);
  }
  if (!tree || typeof tree !== 'object') throw malformed(new Error('No root element'));
  return tree as Record<string, unknown>;
}

/** `readXml` for the callers that await it. */
export const parseXml = async (xml: string): Promise<Record<string, unknown>> => readXml(xml);
