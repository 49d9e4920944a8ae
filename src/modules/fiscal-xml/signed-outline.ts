import { normalizeLineEndings } from '@xmldom/xmldom';
import { sax, SaxParser } from './xml-document';

/*
 * The signature check's reading of a document without a DOM: one pass of sax (the tokenizer the
 * invoice parse uses) over the text yields an outline of the elements (names, namespaces, attributes,
 * parents; text only inside XMLDSig Signatures) and, for the few elements a check may digest or sign
 * (the element whose Id is the signed one, protNFe/infProt, every Signature's SignedInfo), their
 * inclusive C14N (http://www.w3.org/TR/2001/REC-xml-c14n-20010315, without comments) written while
 * they stream past.
 *
 * The canonical text must be byte for byte what xml-crypto's C14nCanonicalization makes of xmldom's
 * DOM of the same text — that is what signed the invoices we accept and what the DOM path verifies
 * with — so this file reproduces both: xmldom's reading (line endings normalised over the whole text
 * first, literal tabs and line feeds in attribute values read as spaces, character references kept)
 * and xml-crypto's rendering (namespace declarations inherited from ancestors on the apex, superfluous
 * ones dropped, declarations sorted by prefix with localeCompare, attributes by namespace URI + local
 * name as one string, empty elements as start/end pairs, its text and attribute escaping, CDATA as
 * escaped text, comments dropped). tests/fiscal-xml/signed-outline.test.ts holds it to that.
 *
 * Whatever it is not certain to read exactly as xmldom does returns null, and the caller checks the
 * document through the DOM instead: any sax error, markup sax takes and xmldom refuses ("&#X41;",
 * "< a", "</ a", an XML declaration not first), a DOCTYPE or SGML declaration, a BOM, an unbound
 * or malformed prefix, a prefix undeclared (xmlns:p=""), declarations of xml/xmlns, attribute names
 * starting "xmlns" that are not declarations, a repeated attribute or a raw "<" in an attribute value
 * (sax takes both; xmldom refuses them), xml:* attributes on an ancestor of a canonicalised element,
 * and processing instructions or empty CDATA sections inside one (xml-crypto renders the one as text
 * and throws on the other).
 */

/*
 * C14N's escaping (https://www.w3.org/TR/xml-c14n#ProcessingModel, Attribute Nodes and Text Nodes): what
 * xml-crypto's canonicalizers write, which the deprecation of its own helpers asks a canonicalizer of
 * one's own to do itself.
 */
const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\r': '&#xD;', '\n': '&#xA;', '\t': '&#x9;' };
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
export const escapeC14nAttribute = (value: string): string => value.replace(/[&<"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c]);
export const escapeC14nText = (text: string): string => text.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]);

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/**
 * One element as the signature checks read it. The outline holds the elements those checks can
 * reach: the root, its children and grandchildren (containers, protocols, infProt, Signatures in
 * their places), every element with an Id attribute, every Signature with all it holds, and the
 * ancestors of all of these (for their parents). Elements outside it only stream past.
 */
export interface OutlineElement {
  /** Position among all the document's elements in document order (0: the root). */
  index: number;
  qname: string;
  localName: string;
  namespaceURI: string | null;
  parent: OutlineElement | null;
  /** Element children, in document order. */
  children: OutlineElement[];
  /** By qualified name, with the values xmldom reads (see `attributesAsXmldom`). */
  attributes: Record<string, string>;
  /** textContent, kept for the elements of a Signature only (null elsewhere). */
  text: string | null;
  /** Inclusive C14N of the element, for the elements listed above only (null elsewhere). */
  canonical: string | null;
}

export interface SignedOutline {
  root: OutlineElement;
}

/** Where the signed elements are: the container's child carries the Id; the protocol's infProt is signed by the authority. */
export interface OutlineShape {
  protocol: string;
}

/** Thrown inside the sax handlers to stop at the first thing this reader leaves to the DOM. */
class Unsupported extends Error {}

interface NsBinding {
  prefix: string;
  namespaceURI: string;
}

/** An attribute with its namespace, as xmldom's Attr has them (the canonicalizer reads these). */
interface QAttr {
  qname: string;
  prefix: string | null;
  localName: string;
  namespaceURI: string | null;
  value: string;
}

/** The state xml-crypto carries from an element to its children: the declarations rendered so far, and the default namespace. */
interface C14nState {
  scope: NsBinding[];
  defaultNs: string;
}

interface Capture {
  frame: Frame;
  element: OutlineElement;
  /** The canonical text so far (appended to: V8 keeps it as a rope until it is hashed). */
  out: string;
  states: C14nState[];
}

interface Frame {
  /** Null until the element joins the outline (see OutlineElement). */
  element: OutlineElement | null;
  index: number;
  qname: string;
  localName: string;
  namespaceURI: string | null;
  attributes: Record<string, string>;
  prefix: string | null;
  /** prefix → namespace in scope ('' the default; '' as a value: undeclared). */
  ns: Record<string, string>;
  /** This element's namespace declarations, in attribute order. */
  declarations: NsBinding[] | null;
  xmlAttributes: boolean;
  inSignature: boolean;
}

const NO_ATTRIBUTES: QAttr[] = [];
const SAX_ONLY = /&#X|<\/?\s/;
const LINE_ENDINGS = /[\r\u0085\u2028\u2029]/;
const SPECIAL_IN_VALUE = /[<\t\n]/;
const RAW_ATTRIBUTE = /\s([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const REFERENCE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function prefixOf(qname: string): string | null {
  const colon = qname.indexOf(':');
  if (colon === -1) return null;
  // xmldom and sax disagree on names like ":a", "a:" or "a:b:c"; the DOM decides those.
  if (colon === 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) !== -1) throw new Unsupported();
  return qname.slice(0, colon);
}

/**
 * The element's attributes as xmldom reads them, from the raw start tag: literal tabs and line feeds
 * become spaces (xmldom's attribute-value normalisation), character references stay what they say.
 * Only called when sax's values might differ from xmldom's (a tab, line feed or "<" in a value, or
 * more "=" in the tag than attributes: a repeated attribute, which sax drops and xmldom refuses).
 */
function attributesAsXmldom(tag: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  RAW_ATTRIBUTE.lastIndex = 0;
  for (let m = RAW_ATTRIBUTE.exec(tag); m; m = RAW_ATTRIBUTE.exec(tag)) {
    const raw = m[2] ?? m[3];
    if (Object.prototype.hasOwnProperty.call(out, m[1]) || raw.includes('<')) throw new Unsupported();
    out[m[1]] = raw.replace(/[\t\n\r]/g, ' ').replace(REFERENCE, (_all, hex: string, dec: string, name: string) => {
      if (name) return PREDEFINED[name];
      const code = parseInt(hex ?? dec, hex ? 16 : 10);
      // Beyond what String.fromCodePoint takes, and the surrogate halves xmldom writes as they come: the DOM decides.
      if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) throw new Unsupported();
      return String.fromCodePoint(code);
    });
  }
  return out;
}

/** How many "=" the start tag text[from, to) holds (one per attribute, unless a value has some). */
function equalSigns(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 61) n++;
  return n;
}

const nsMap = (from: Record<string, string>): Record<string, string> => Object.assign(Object.create(null) as Record<string, string>, from);

const inScope = (scope: NsBinding[], prefix: string, namespaceURI: string | null): boolean => {
  // xml-crypto's isPrefixInScope: the last binding of the prefix decides.
  for (let i = scope.length - 1; i >= 0; i--) if (scope[i].prefix === prefix) return scope[i].namespaceURI === namespaceURI;
  return false;
};

/** xml-crypto's attrCompare: no namespace first, then namespace URI and local name compared as one string. */
function attrCompare(a: QAttr, b: QAttr): number {
  if (!a.namespaceURI && b.namespaceURI) return -1;
  if (!b.namespaceURI && a.namespaceURI) return 1;
  const left = `${a.namespaceURI}${a.localName}`;
  const right = `${b.namespaceURI}${b.localName}`;
  return left === right ? 0 : left < right ? -1 : 1;
}

/** xml-crypto's renderNs + renderAttrs for one start tag; `ancestors` only on the apex. */
function startTag(
  qname: string,
  prefix: string | null,
  namespaceURI: string | null,
  attrs: QAttr[],
  state: C14nState,
  ancestors: NsBinding[] | null,
): [string, C14nState] {
  // Most elements of an invoice: no attributes, no prefix, the default namespace of their parent.
  if (!attrs.length && !prefix && !ancestors && (namespaceURI ?? '') === state.defaultNs) return [`<${qname}>`, state];
  let scope = state.scope;
  let copied = false;
  const rendered: NsBinding[] = [];
  const declare = (p: string, uri: string) => {
    rendered.push({ prefix: p, namespaceURI: uri });
    if (!copied) {
      scope = scope.slice();
      copied = true;
    }
    scope.push({ prefix: p, namespaceURI: uri });
  };
  if (prefix && !inScope(scope, prefix, namespaceURI)) declare(prefix, namespaceURI!);
  let localDefault: string | null = null;
  for (const a of attrs) if (a.qname === 'xmlns') localDefault = a.value;
  const nodeDefault = localDefault !== null ? localDefault : prefix ? state.defaultNs : (namespaceURI ?? '');
  let out = `<${qname}`;
  let defaultNs = state.defaultNs;
  if (nodeDefault !== defaultNs) {
    defaultNs = nodeDefault;
    out += ` xmlns="${nodeDefault}"`;
  }
  for (const a of attrs) {
    if (a.prefix === 'xmlns' && !inScope(scope, a.localName, a.value)) declare(a.localName, a.value);
    if (a.prefix && a.prefix !== 'xmlns' && a.prefix !== 'xml' && !inScope(scope, a.prefix, a.namespaceURI))
      declare(a.prefix, a.namespaceURI!);
  }
  if (ancestors) {
    for (const ns of ancestors) {
      if (rendered.some((r) => r.prefix === ns.prefix) || (!ns.prefix && localDefault !== null)) continue;
      rendered.push(ns);
      if (!ns.prefix) defaultNs = ns.namespaceURI;
    }
  }
  rendered.sort((a, b) => (a.prefix === b.prefix ? 0 : a.prefix.localeCompare(b.prefix)));
  for (const ns of rendered) out += ns.prefix ? ` xmlns:${ns.prefix}="${ns.namespaceURI}"` : ` xmlns="${ns.namespaceURI}"`;
  const plain = attrs.filter((a) => a.qname.indexOf('xmlns') !== 0).sort(attrCompare);
  for (const a of plain) out += ` ${a.qname}="${escapeC14nAttribute(a.value)}"`;
  return [`${out}>`, { scope, defaultNs }];
}

/**
 * xml-crypto's findAncestorNsForElement for the open element `frames[at]`: the nearest
 * declaration of each prefix on its ancestors, undeclarations and the prefixes the element declares
 * itself (or is named with; '' when unprefixed) left out.
 */
function ancestorNamespaces(frames: Frame[], at: number): NsBinding[] {
  const own = frames[at];
  const seen = new Set<string>();
  const nearest: NsBinding[] = [];
  for (let i = at - 1; i >= 0; i--) {
    for (const ns of frames[i].declarations ?? []) {
      if (seen.has(ns.prefix)) continue;
      seen.add(ns.prefix);
      nearest.push(ns);
    }
  }
  const excluded = new Set((own.declarations ?? []).map((ns) => ns.prefix));
  excluded.add(own.prefix ?? '');
  return nearest.filter((ns) => ns.namespaceURI !== '' && !excluded.has(ns.prefix));
}

/** The namespaces an element's declarations put in scope for it and its children. */
interface Scope {
  /** prefix → namespace (shared with the parent when the element declares nothing). */
  ns: Record<string, string>;
  declarations: NsBinding[] | null;
  /** An xml:* attribute on the element (xml-crypto would inherit it into a canonicalised descendant). */
  xmlAttributes: boolean;
}

/** The element's declarations over its parent's scope; declarations xmldom refuses or reads otherwise are Unsupported. */
function scopeOf(parent: Frame | null, attributes: Record<string, string>, count: number): Scope {
  // Without a prototype: a prefix named "constructor" or "__proto__" is bound only if declared.
  let ns = parent ? parent.ns : nsMap({ xml: XML_NS });
  let declarations: NsBinding[] | null = null;
  let xmlAttributes = false;
  if (count)
    for (const key in attributes) {
      if (key === 'xmlns') (declarations ??= []).push({ prefix: '', namespaceURI: attributes[key] });
      else if (key.startsWith('xmlns:')) {
        const p = key.slice(6);
        if (p === 'xml' || p === 'xmlns' || attributes[key] === '' || p.includes(':') || !p) throw new Unsupported();
        if (attributes[key] === XML_NS || attributes[key] === XMLNS_NS) throw new Unsupported();
        (declarations ??= []).push({ prefix: p, namespaceURI: attributes[key] });
      } else if (key.startsWith('xmlns')) throw new Unsupported();
      else if (prefixOf(key) === 'xml') xmlAttributes = true;
    }
  if (declarations) {
    ns = nsMap(ns);
    for (const d of declarations) ns[d.prefix] = d.namespaceURI;
  }
  return { ns, declarations, xmlAttributes };
}

/** The element's namespace: its prefix's binding (an unbound prefix is Unsupported), else the default one. */
function namespaceOf(prefix: string | null, ns: Record<string, string>): string | null {
  if (!prefix) return ns[''] || null;
  const namespaceURI = ns[prefix] ?? '';
  if (!namespaceURI || prefix === 'xmlns') throw new Unsupported();
  return namespaceURI;
}

/**
 * xmldom refuses a prefix nothing binds (an attribute's may be declared later in the same tag), and
 * keeps one of two attributes with the same namespace and local name (p:a and q:a, p and q bound to
 * one URI): both are Unsupported.
 */
function checkQualifiedAttributes(attributes: Record<string, string>, count: number, ns: Record<string, string>): void {
  if (!count) return;
  let qualified: Set<string> | null = null;
  for (const key in attributes) {
    if (key.indexOf(':') === -1) continue;
    const p = prefixOf(key);
    if (!p || p === 'xmlns') continue;
    if (!ns[p]) throw new Unsupported();
    const expanded = `${ns[p]} ${key.slice(p.length + 1)}`;
    if (qualified?.has(expanded)) throw new Unsupported();
    (qualified ??= new Set()).add(expanded);
  }
}

/** The attributes with their namespaces, as the canonicalizer reads xmldom's Attr nodes. */
function qualifiedAttributes(attributes: Record<string, string>, count: number, ns: Record<string, string>): QAttr[] {
  if (!count) return NO_ATTRIBUTES;
  const attrs: QAttr[] = [];
  for (const key in attributes) {
    const p = key === 'xmlns' ? null : prefixOf(key);
    const uri = p === 'xmlns' || key === 'xmlns' ? XMLNS_NS : p ? ns[p] : null;
    attrs.push({ qname: key, prefix: p, localName: p ? key.slice(p.length + 1) : key, namespaceURI: uri, value: attributes[key] });
  }
  return attrs;
}

/**
 * One pass of sax over the text, its handlers as the steps of reading an element: the start tag's
 * attributes as xmldom reads them, the namespaces in scope, whether the element joins the outline or
 * starts a canonical text, and the canonical texts it is written into; then its end tag and its
 * character data. Whatever the DOM must decide throws Unsupported (the read returns null).
 */
class OutlineReader {
  private readonly parser: SaxParser = sax.parser(true, { trim: false, normalize: false, xmlns: false, position: true });
  private readonly frames: Frame[] = [];
  private readonly captures: Capture[] = [];
  private root: OutlineElement | null = null;
  /** Open elements with an xml:* attribute: no canonical text may start below one. */
  private xmlAttributeFrames = 0;
  private elementCount = 0;
  private cdataLength = 0;

  constructor(
    private readonly text: string,
    private readonly signedId: string,
    private readonly shape: OutlineShape,
  ) {
    const unsupported = () => {
      throw new Unsupported();
    };
    const p = this.parser;
    p.onerror = unsupported;
    p.ondoctype = unsupported;
    p.onsgmldeclaration = unsupported;
    p.onprocessinginstruction = (pi) => this.processingInstruction(pi.name);
    p.onopencdata = () => {
      this.cdataLength = 0;
    };
    p.onclosecdata = () => {
      if (this.cdataLength === 0 && this.captures.length) throw new Unsupported();
    };
    p.onopentag = (node) => this.openTag(node.name, node.attributes);
    p.onclosetag = () => this.closeTag();
    p.ontext = (chunk) => this.characters(chunk);
    p.oncdata = (chunk) => {
      this.cdataLength += chunk.length;
      this.characters(chunk);
    };
  }

  /** The outline of the whole text, or null when the text ended inside an element or had no root. */
  read(): SignedOutline | null {
    this.parser.write(this.text).close();
    if (!this.root || this.frames.length || this.captures.length) return null;
    return { root: this.root };
  }

  private processingInstruction(name: string): void {
    // xmldom takes an XML declaration only as the very first thing, and only spelled "xml".
    if (this.captures.length || (/^xml$/i.test(name) && (name !== 'xml' || this.parser.startTagPosition !== 1))) throw new Unsupported();
  }

  private openTag(qname: string, saxAttributes: Record<string, string>): void {
    const prefix = prefixOf(qname);
    const [attributes, count] = this.attributesOf(qname, saxAttributes);
    const parent = this.frames.length ? this.frames[this.frames.length - 1] : null;
    if (!parent && this.root) throw new Unsupported();
    const scope = scopeOf(parent, attributes, count);
    const namespaceURI = namespaceOf(prefix, scope.ns);
    const localName = prefix ? qname.slice(prefix.length + 1) : qname;
    const depth = this.frames.length;
    const starts = this.startsCanonicalText(attributes, localName, namespaceURI, depth, parent);
    if (starts && this.xmlAttributeFrames > 0) throw new Unsupported();
    const frame: Frame = {
      element: null,
      index: this.elementCount++,
      qname,
      localName,
      namespaceURI,
      attributes,
      prefix,
      ns: scope.ns,
      declarations: scope.declarations,
      xmlAttributes: scope.xmlAttributes,
      inSignature: (parent?.inSignature ?? false) || (localName === 'Signature' && namespaceURI === DSIG_NS),
    };
    this.frames.push(frame);
    if (frame.xmlAttributes) this.xmlAttributeFrames++;
    if (depth <= 2 || frame.inSignature || starts || attributes.Id !== undefined) this.materialize(depth);
    if (starts) this.captures.push({ frame, element: frame.element!, out: '', states: [] });
    checkQualifiedAttributes(attributes, count, scope.ns);
    if (this.captures.length) this.writeStartTag(frame, qualifiedAttributes(attributes, count, scope.ns));
  }

  /**
   * sax's attributes, or the raw start tag's read as xmldom reads them when they might differ: a tab,
   * line feed or "<" in a value, or more "=" in the tag than attributes (a repeated attribute, which
   * sax drops and xmldom refuses; a tag longer than "<name/>" with none read: sax drops one named
   * __proto__).
   */
  private attributesOf(qname: string, attributes: Record<string, string>): [Record<string, string>, number] {
    let count = 0;
    let special = false;
    for (const key in attributes) {
      count++;
      if (SPECIAL_IN_VALUE.test(attributes[key])) special = true;
    }
    const start = this.parser.startTagPosition - 1;
    const end = this.parser.position;
    if (special || ((count > 0 || end - start > qname.length + 3) && equalSigns(this.text, start, end) !== count)) {
      const read = attributesAsXmldom(this.text.slice(start, end));
      return [read, Object.keys(read).length];
    }
    return [attributes, count];
  }

  /** Whether the element starts a canonical text: the signed one (its Id), the protocol's infProt, a Signature's SignedInfo. */
  private startsCanonicalText(
    attributes: Record<string, string>,
    localName: string,
    namespaceURI: string | null,
    depth: number,
    parent: Frame | null,
  ): boolean {
    return (
      attributes.Id === this.signedId ||
      (localName === 'infProt' && depth === 2 && parent!.localName === this.shape.protocol) ||
      (localName === 'SignedInfo' &&
        namespaceURI === DSIG_NS &&
        !!parent &&
        parent.localName === 'Signature' &&
        parent.namespaceURI === DSIG_NS)
    );
  }

  /** Puts the open element at `depth` into the outline, with its ancestors not yet there. */
  private materialize(depth: number): OutlineElement {
    const f = this.frames[depth];
    if (f.element) return f.element;
    const parent = depth > 0 ? this.materialize(depth - 1) : null;
    const element: OutlineElement = {
      index: f.index,
      qname: f.qname,
      localName: f.localName,
      namespaceURI: f.namespaceURI,
      parent,
      children: [],
      attributes: f.attributes,
      text: f.inSignature ? '' : null,
      canonical: null,
    };
    if (parent) parent.children.push(element);
    else this.root = element;
    f.element = element;
    return element;
  }

  /** The start tag in every canonical text being written: the apex of its own with the ancestors' declarations, in the others as inherited. */
  private writeStartTag(frame: Frame, attrs: QAttr[]): void {
    const { qname, prefix, namespaceURI } = frame;
    for (const c of this.captures) {
      if (c.frame === frame) {
        const ancestors = ancestorNamespaces(this.frames, this.frames.length - 1);
        const [tag, state] = startTag(qname, prefix, namespaceURI, attrs, { scope: ancestors.slice(), defaultNs: '' }, ancestors);
        c.out += tag;
        c.states.push(state);
        continue;
      }
      const inherited = c.states[c.states.length - 1];
      if (!attrs.length && !prefix && (namespaceURI ?? '') === inherited.defaultNs) {
        // startTag's first case, without its allocations (most elements of an invoice).
        c.out += `<${qname}>`;
        c.states.push(inherited);
        continue;
      }
      const [tag, state] = startTag(qname, prefix, namespaceURI, attrs, inherited, null);
      c.out += tag;
      c.states.push(state);
    }
  }

  private closeTag(): void {
    const frame = this.frames.pop()!;
    if (frame.xmlAttributes) this.xmlAttributeFrames--;
    for (let i = this.captures.length - 1; i >= 0; i--) {
      const c = this.captures[i];
      c.out += `</${frame.qname}>`;
      c.states.pop();
      if (c.frame === frame) {
        c.element.canonical = c.out;
        this.captures.splice(i, 1);
      }
    }
  }

  private characters(chunk: string): void {
    const frames = this.frames;
    if (!frames.length) return;
    if (chunk && this.captures.length) {
      const escaped = escapeC14nText(chunk);
      for (const c of this.captures) c.out += escaped;
    }
    for (let i = frames.length - 1; i >= 0 && frames[i].inSignature; i--) frames[i].element!.text += chunk;
  }
}

/**
 * Reads `xml` for the signature checks: the outline, with the canonical form of every element whose
 * Id is `signedId`, every protocol's infProt and every Signature's SignedInfo. Null: the document
 * needs the DOM (see the header).
 */
export function readSignedOutline(xml: string, signedId: string, shape: OutlineShape): SignedOutline | null {
  if (xml.charCodeAt(0) === 0xfeff) return null;
  // What sax takes and xmldom refuses, in markup sax reports no position for: "&#X41;", "< a", "</ a".
  if (SAX_ONLY.test(xml)) return null;
  // xmldom's own first step, over the whole text.
  const text = LINE_ENDINGS.test(xml) ? normalizeLineEndings(xml) : xml;
  try {
    return new OutlineReader(text, signedId, shape).read();
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}
