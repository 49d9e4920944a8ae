import { expect } from 'chai';
import { Parser, processors } from 'xml2js';
import { parseXml } from '../../src/modules/fiscal-xml/xml-document';
import { buildNfe } from '../support/nfe-builder';

/*
 * parseXml builds xml2js's tree straight from sax's events: it must give the same tree (shapes and key
 * order) or the same first error as xml2js with these options, on an NF-e and on mutations of it
 * (odd element names like '_', 'cdata' or 'constructor' included).
 */
const parserOptions = {
  explicitArray: false,
  explicitRoot: true,
  tagNameProcessors: [processors.stripPrefix],
  attrNameProcessors: [processors.stripPrefix],
  trim: true,
  normalize: false,
  async: false,
  strict: true,
};

async function outcome(read: (x: string) => Promise<unknown>, xml: string): Promise<{ tree?: string; error?: string }> {
  try {
    const tree = await read(xml);
    return tree && typeof tree === 'object' ? { tree: JSON.stringify(tree) } : { error: 'No root element' };
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0] };
  }
}

describe('NF-e XML tree (parseXml against xml2js)', () => {
  it('reads an NF-e and 600 mutations of it as xml2js does', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const base = buildNfe({
      recipient: { cnpj: '11222333000181' },
      items: [
        { code: 'A', description: 'X & Y', unit: 'UN', quantity: '1', unitPrice: '2.00', icms: { cst: '00', rate: '18' } },
        { code: 'B', description: 'Z', unit: 'UN', quantity: '1', unitPrice: '2.00', icms: { cst: '00', rate: '18' } },
      ],
    }).xml;
    const inserts = [
      '<',
      '>',
      '&',
      '&amp;',
      '&#65;',
      '<![CDATA[ x ]]>',
      '<![CDATA[   ]]>',
      ' ',
      '\n',
      '<a/>',
      '<_>t</_>',
      '<b:c x:y="1">t</b:c>',
      '<cdata>1</cdata>',
      '<constructor/>',
      '<!-- c -->',
      '<?pi x?>',
      '</x>',
      '"',
      '<e a="1" a="2"/>',
      '<t> </t>',
      '<t>  x  </t>',
      '<t a="1"> </t>',
      '<t a="1">x</t>',
      '<t><u/>x</t>',
      '<t>x<u/>y</t>',
      '<t><u>1</u><u>2</u></t>',
      '<t xmlns:q="u" q:a="1"/>',
    ];
    const cases = [
      base,
      '<a/>',
      '<a> </a>',
      '<a>x</a>',
      '<a><b/></a>',
      ' <a/> junk',
      '<a/><b/>',
      '<a>',
      '<a></b>',
      '<a><![CDATA[]]></a>',
      '<a><b>1</b>x</a>',
      // names that collide with xml2js's bookkeeping (its text key, its cdata flag, Object.prototype)
      '<a><_>t</_>x</a>',
      '<a>x<_>t</_></a>',
      '<a><_/><_/></a>',
      '<a><cdata>1</cdata><![CDATA[x]]></a>',
      '<a><constructor/></a>',
      '<a><toString>1</toString><toString>2</toString></a>',
      '<__proto__ __proto__="1"/>',
      '<a><__proto__>1</__proto__></a>',
      '<a><$>1</$></a>',
      '<a x="1"><$/></a>',
    ];
    for (let i = 0; i < 600; i++) {
      let x = base;
      for (let j = 0, k = 1 + Math.floor(random() * 3); j < k; j++) {
        const at = Math.floor(random() * x.length);
        const r = random();
        if (r < 0.5) x = x.slice(0, at) + inserts[Math.floor(random() * inserts.length)] + x.slice(at);
        else if (r < 0.8) x = x.slice(0, at) + x.slice(at + 1 + Math.floor(random() * 5));
        else x = x.slice(0, Math.max(1, at));
      }
      cases.push(x);
    }
    let trees = 0;
    for (const x of cases) {
      const expected = await outcome((s) => new Parser(parserOptions).parseStringPromise(s), x);
      const actual = await outcome(parseXml, x);
      if (expected.tree) {
        trees++;
        expect(actual.tree, x.slice(0, 200)).to.equal(expected.tree);
      } else {
        expect(actual.error, x.slice(0, 200)).to.be.a('string').and.include(expected.error);
      }
    }
    expect(trees).to.be.greaterThan(50);
  });
});
