import { Parser, processors } from 'xml2js';
import { AppError } from '../../../core/errors';

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
  throw new AppError('invalid', 'XML_DOCTYPE_FORBIDDEN', `XML with a ${match[1].toUpperCase()} declaration is not accepted (line ${at.line}, column ${at.column})`, {
    ...at,
    errors: [{ path: 'xml', message: `${match[1].toUpperCase()} declarations are not allowed` }],
  });
}

const parserOptions = {
  explicitArray: false,
  explicitRoot: true,
  // NF-e elements live in the portal's default namespace; a prefixed copy (ds:, nfe:) reads the same.
  tagNameProcessors: [processors.stripPrefix],
  attrNameProcessors: [processors.stripPrefix],
  trim: true,
  normalize: false,
  async: false,
  strict: true,
};

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

/** Parses XML text into xml2js's tree: `{ rootName: node }`, attributes under `$`, text under `_`. */
export async function parseXml(xml: string): Promise<Record<string, unknown>> {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  assertNoDoctype(text);
  if (!text.trim()) throw malformed(new Error('Empty document'));
  let tree: unknown;
  try {
    tree = await new Parser(parserOptions).parseStringPromise(text);
  } catch (err) {
    throw malformed(err);
  }
  if (!tree || typeof tree !== 'object') throw malformed(new Error('No root element'));
  return tree as Record<string, unknown>;
}
