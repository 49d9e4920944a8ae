import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import type { BookDocument, BookLine, FiscalBook } from '../../src/modules/fiscal-books';
import { buildEfd, EfdInput } from '../../src/modules/sped/efd-builder';
import { validateEfd } from '../../src/modules/sped/efd-validator';
import { LAYOUT } from '../../src/modules/sped/layout';
import { encodeLatin1, renderLines } from '../../src/modules/sped/writer';

/*
 * Issue 47, the EFD writer and its validator without a database: a book with an interstate sale to a
 * non-contributor (C101, E300/E310/E316), an exit with ST (E200/E210/E250), a Latin-1 name; the file
 * passes its own validation; each kind of damage the PVA refuses is found as a blocking finding.
 */

const D = (v: string | number) => new Dec(v);
const Z = D(0);
function line(over: Partial<BookLine>): BookLine {
  return {
    lineNumber: 1,
    productId: null,
    itemCode: 'P1',
    description: 'Café torrado 500 g',
    unit: 'UN',
    quantity: D(1),
    gross: D(100),
    discount: Z,
    freight: Z,
    insurance: Z,
    other: Z,
    cfop: '5102',
    cstIcms: '000',
    icmsRate: D(18),
    icmsBase: D(100),
    icms: D(18),
    stBase: Z,
    stRate: Z,
    st: Z,
    fcp: Z,
    fcpSt: Z,
    ipiCst: null,
    ipiBase: Z,
    ipiRate: Z,
    ipi: Z,
    pisCst: '01',
    pisBase: D(100),
    pisRate: D(1.65),
    pis: D(1.65),
    cofinsCst: '01',
    cofinsBase: D(100),
    cofinsRate: D(7.6),
    cofins: D(7.6),
    difal: Z,
    difalFcp: Z,
    difalOrigin: Z,
    operationValue: D(100),
    baseReduction: Z,
    ...over,
  };
}
function doc(ref: string, over: Partial<BookDocument>, lines: BookLine[]): BookDocument {
  return {
    ref,
    kind: 'NFE',
    direction: 'OUT',
    ownIssue: true,
    model: '55',
    series: '1',
    number: ref.split(':')[1],
    accessKey: '3526' + ref.split(':')[1].padStart(40, '0'),
    situation: '00',
    purpose: '1',
    issueDate: '2026-11-10',
    ioDate: '2026-11-10',
    participant: {
      code: '11222333000181',
      name: 'Mercado São João Ltda',
      cnpj: '11222333000181',
      cpf: null,
      stateRegistration: '110042490114',
      uf: 'SP',
      cityCode: '3550308',
      street: 'Rua A',
      number: '1',
      complement: null,
      district: 'Centro',
    },
    partnerUf: 'SP',
    operationNature: 'Venda',
    paymentIndicator: '0',
    freightMode: '9',
    total: lines.reduce((a, l) => a.plus(l.operationValue), Z),
    products: lines.reduce((a, l) => a.plus(l.gross), Z),
    discount: Z,
    freight: Z,
    insurance: Z,
    other: Z,
    lines,
    ...over,
  };
}

const book: FiscalBook = {
  companyId: 1,
  filialId: 1,
  period: '2026-11',
  firstDay: '2026-11-01',
  lastDay: '2026-11-30',
  filialUf: 'SP',
  voided: [{ model: '55', series: '1', number: '9' }],
  documents: [
    doc('NFE:1', {}, [line({})]),
    // Interstate sale to a consumer in RJ: 12 % interstate, DIFAL 8 % and FCP 2 % to RJ.
    doc(
      'NFE:2',
      {
        partnerUf: 'RJ',
        participant: {
          code: '52998224725',
          name: 'José Conceição',
          cnpj: null,
          cpf: '52998224725',
          stateRegistration: null,
          uf: 'RJ',
          cityCode: '3304557',
          street: null,
          number: null,
          complement: null,
          district: null,
        },
      },
      [line({ cfop: '6108', icmsRate: D(12), icms: D(12), difal: D(8), difalFcp: D(2) })],
    ),
    // A sale with ST withheld (CST 10).
    doc('NFE:3', {}, [line({ cstIcms: '010', cfop: '5401', stBase: D(140), stRate: D(18), st: D('7.20'), operationValue: D('107.20') })]),
    doc('NFE:4', { situation: '02' }, [line({})]),
  ],
};

const input = (over: Partial<EfdInput> = {}): EfdInput => ({
  book,
  company: { id: 1, name: 'Mercearia Boa Vista Ltda', cnpj: '45723174000110' } as never,
  filial: {
    id: 1,
    name: 'Matriz',
    tradeName: 'Boa Vista',
    cnpj: '45723174000110',
    uf: 'SP',
    stateRegistration: '110042490114',
    municipalityCode: '3550308',
    postalCode: '01304001',
    addressStreet: 'Rua Augusta',
    addressNumber: '1500',
    addressComplement: null,
    addressDistrict: 'Consolação',
    phone: '1130001000',
    industrial: false,
  } as never,
  layoutVersion: '020',
  finalidade: '0',
  perfil: 'A',
  accountant: { name: 'Carla Menezes', cpf: '52998224725', crc: '1SP123456O5' },
  products: new Map(),
  inventory: null,
  previousCredit: Z,
  revenueCode: '046-2',
  ...over,
});

const render = (over: Partial<EfdInput> = {}) => encodeLatin1(renderLines(buildEfd(input(over)).lines)).toString('latin1');
const blocking = (text: string) => validateEfd(text).filter((f) => f.severity === 'BLOCKING');
const lines = (text: string) =>
  text
    .split('\r\n')
    .slice(0, -1)
    .map((l) => l.slice(1, -1).split('|'));

describe('EFD ICMS/IPI writer and validator', () => {
  it('a clean book: no blocking finding; C101, E200/E210/E250 (SP, ST), E300/E310/E316 (RJ, DIFAL and FCP), a 02 and a 05; Latin-1 kept', () => {
    const text = render();
    expect(blocking(text), JSON.stringify(blocking(text))).to.deep.equal([]);
    const ls = lines(text);
    for (const l of ls) expect(l.length, l[0]).to.equal(LAYOUT[l[0]].length);
    expect(ls.find((l) => l[0] === 'C101')).to.deep.equal(['C101', '2,00', '8,00', '0,00']);
    expect(ls.find((l) => l[0] === 'E200')!.slice(0, 2)).to.deep.equal(['E200', 'SP']);
    expect(ls.find((l) => l[0] === 'E210')![7]).to.equal('7,20');
    expect(ls.find((l) => l[0] === 'E250')!.slice(1, 3)).to.deep.equal(['002', '7,20']);
    expect(ls.find((l) => l[0] === 'E300')!.slice(0, 2)).to.deep.equal(['E300', 'RJ']);
    const e310 = ls.find((l) => l[0] === 'E310')!;
    expect([e310[3], e310[9], e310[13], e310[19]]).to.deep.equal(['8,00', '8,00', '2,00', '2,00']);
    expect(ls.filter((l) => l[0] === 'E316').map((l) => [l[1], l[2]])).to.deep.equal([
      ['000', '8,00'],
      ['006', '2,00'],
    ]);
    const e110 = ls.find((l) => l[0] === 'E110')!;
    expect(e110[1]).to.equal('48,00');
    expect(ls.find((l) => l[0] === 'E116')![2]).to.equal('48,00');
    expect(ls.filter((l) => l[0] === 'C100').map((l) => l[5])).to.deep.equal(['00', '00', '00', '02', '05']);
    expect(text).to.contain('Mercado São João Ltda');
    expect(Buffer.from(text, 'latin1').includes(Buffer.from([0xe3]))).to.equal(true); // ã in ISO-8859-1
  });

  it('a credit balance is carried (VL_SLD_CREDOR_TRANSPORTAR) and no E116 is written', () => {
    const ls = lines(render({ previousCredit: D(100) }));
    const e110 = ls.find((l) => l[0] === 'E110')!;
    expect([e110[9], e110[10], e110[12], e110[13]]).to.deep.equal(['100,00', '0,00', '0,00', '52,00']);
    expect(ls.some((l) => l[0] === 'E116')).to.equal(false);
  });

  it('the damage the PVA refuses is a blocking finding: field count, format, 9900 count, a 0200 reference, C190 vs C100, E116 vs E110, H005 vs H010, line endings', () => {
    const text = render();
    const swap = (from: RegExp, to: string) => text.replace(from, to);
    const codes = (t: string) => blocking(t).map((f) => f.code);
    expect(codes(swap(/\|1001\|0\|/, '|1001|0|X|'))).to.include('FIELD_COUNT');
    expect(codes(swap(/\|E100\|01112026\|/, '|E100|2026-11-01|'))).to.include('FIELD_FORMAT');
    expect(codes(swap(/\|9900\|C190\|(\d+)\|/, '|9900|C190|99|'))).to.include('REGISTER_COUNT');
    expect(codes(swap(/\|E116\|000\|48,00\|/, '|E116|000|47,00|'))).to.include('E116_VS_E110');
    expect(codes(swap(/\|E110\|48,00\|/, '|E110|47,00|'))).to.include('E110_VS_C190');
    expect(codes(swap(/\|C190\|000\|5102\|18,00\|100,00\|100,00\|18,00\|/, '|C190|000|5102|18,00|100,00|100,00|17,00|'))).to.include(
      'C190_VS_C100',
    );
    expect(codes(text.replace(/\r\n/g, '\n'))).to.include('LINE_ENDING');
    expect(codes(render({ accountant: null }))).to.include('ACCOUNTANT_MISSING');
    // An entry's C170 item without its 0200, and an inventory whose H005 disagrees with its H010.
    const entry = doc('ENTRY:7', { direction: 'IN', ownIssue: false }, [line({ cfop: '1102', itemCode: 'X9' })]);
    const withEntry = render({ book: { ...book, documents: [...book.documents, entry] } });
    expect(blocking(withEntry)).to.deep.equal([]);
    expect(codes(withEntry.replace(/\|0200\|X9\|[^\r]*\r\n/, ''))).to.include('REFERENCE_0200');
    const inv = render({
      inventory: {
        countId: 1,
        countDate: '2026-11-30',
        motive: '01',
        totalValue: D(50),
        items: [{ productId: 1, code: 'P1', unit: 'UN', quantity: D(2), unitCost: D(25), value: D(50) }],
      },
    });
    expect(blocking(inv)).to.deep.equal([]);
    expect(codes(inv.replace('|H005|30112026|50,00|01|', '|H005|30112026|60,00|01|'))).to.include('H005_VS_H010');
  });
});
