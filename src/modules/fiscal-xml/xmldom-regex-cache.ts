/*
 * @xmldom/xmldom 0.9 builds a Unicode RegExp from its grammar on every end tag it reads
 * (`g.reg('^', g.QName_group, g.S_OPT, '$')` in sax.js) and on other lookups: compiling it is most of
 * the DOM parse of a 990-item NF-e (about two thirds of the signature check's CPU). The expressions
 * are built from the same few constant parts, carry no `g`/`y` flag (no lastIndex state), and are only
 * used with exec/test, so one compiled RegExp per distinct source serves every call. Loaded before
 * any DOMParser is used (by signature.ts); the parse itself is xmldom's, unchanged.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a package-internal file without typings or an export entry
const grammar = require('@xmldom/xmldom/lib/grammar') as { reg: (...parts: (RegExp | string)[]) => RegExp; __cachedReg?: boolean };

if (typeof grammar.reg === 'function' && !grammar.__cachedReg) {
  const build = grammar.reg;
  // A trie on the parts themselves: the grammar's RegExp parts are the same objects on every call,
  // so looking them up costs a few Map hits (keying by their sources would hash kilobytes per call).
  interface Node {
    next: Map<RegExp | string, Node>;
    re?: RegExp;
  }
  const root: Node = { next: new Map() };
  let size = 0;
  grammar.reg = function cachedReg(this: unknown, ...parts: (RegExp | string)[]): RegExp {
    let node = root;
    for (const p of parts) {
      let child = node.next.get(p);
      if (!child) {
        if (size >= 256) return build.apply(this, parts);
        node.next.set(p, (child = { next: new Map() }));
        size++;
      }
      node = child;
    }
    if (!node.re) {
      const re = build.apply(this, parts);
      if (re.global || re.sticky) return re;
      node.re = re;
    }
    return node.re;
  };
  grammar.__cachedReg = true;
}

export {};
