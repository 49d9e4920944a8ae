import { expect } from 'chai';
import { AppError } from '../../../src/core/errors';
import { assertNoDoctype, parseXml } from '../../../src/modules/fiscal-xml/xml-document';

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

describe('nfe/xml: xml-document (safe parsing)', () => {
  it('parses a document into the xml2js tree (attributes under $, prefixes stripped)', async () => {
    const tree = await parseXml('<?xml version="1.0"?><a x="1"><ds:b xmlns:ds="urn:x">text</ds:b><c>1</c><c>2</c></a>');
    const a = tree.a as Record<string, any>;
    expect(a.$.x).to.equal('1');
    expect(a.b._ ?? a.b).to.equal('text');
    expect(a.c).to.deep.equal(['1', '2']);
  });

  it('accepts a UTF-8 byte-order mark', async () => {
    const tree = await parseXml('\ufeff<a>1</a>');
    expect(tree.a).to.equal('1');
  });

  it('refuses a DOCTYPE before parsing, with its position', () => {
    const bomb = '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>\n<a>&lol2;</a>';
    try {
      assertNoDoctype(bomb);
      expect.fail('should refuse');
    } catch (err) {
      const e = err as AppError;
      expect(e.code).to.equal('XML_DOCTYPE_FORBIDDEN');
      expect(e.kind).to.equal('invalid');
      expect(e.extensions).to.include({ line: 2, column: 1 });
    }
  });

  it('refuses an ENTITY declaration even without DOCTYPE, and an external entity (XXE)', async () => {
    expect((await rejection(parseXml('<a><!ENTITY x SYSTEM "file:///etc/passwd"></a>'))).code).to.equal('XML_DOCTYPE_FORBIDDEN');
    expect((await rejection(parseXml('<!doctype a SYSTEM "http://evil/x.dtd"><a/>'))).code).to.equal('XML_DOCTYPE_FORBIDDEN');
  });

  it('refuses malformed XML with 400 MALFORMED_XML and the parser line/column (1-based line)', async () => {
    const e = await rejection(parseXml('<a>\n  <b>1</c>\n</a>'));
    expect(e.code).to.equal('MALFORMED_XML');
    expect(e.kind).to.equal('invalid');
    expect(e.extensions.line).to.equal(2);
    expect(e.extensions.column).to.be.a('number').greaterThan(0);
    expect(e.message).to.match(/line 2, column \d+/);
  });

  it('refuses text that is not XML and an empty body', async () => {
    expect((await rejection(parseXml('hello'))).code).to.equal('MALFORMED_XML');
    expect((await rejection(parseXml('   '))).code).to.equal('MALFORMED_XML');
    expect((await rejection(parseXml('<a><b></a>'))).code).to.equal('MALFORMED_XML');
  });
});
