import { expect } from 'chai';
import { Dec } from '../../../src/core/decimal';
import { AppError } from '../../../src/core/errors';
import { parseNfe } from '../../../src/modules/fiscal-xml/nfe/nfe-parser';
import { buildNfe } from '../../support/nfe-builder';

const RECIPIENT = { cnpj: '23765766000162' };

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

/** Layout 3.10 differences on a 4.00 document: versao, indPag in ide, pag with tPag/vPag directly. */
function as310(xml: string): string {
  return xml
    .replace(/versao="4.00"/g, 'versao="3.10"')
    .replace('<tpNF>1</tpNF>', '<indPag>1</indPag><tpNF>1</tpNF>')
    .replace(/<pag><detPag><indPag>\d<\/indPag>(.*?)<\/detPag><\/pag>/, '<pag>$1</pag>')
    .replace(/<vFCPST>[^<]*<\/vFCPST>|<vFCPSTRet>[^<]*<\/vFCPSTRet>|<vIPIDevol>[^<]*<\/vIPIDevol>|<vFCP>[^<]*<\/vFCP>/g, '');
}

describe('nfe/xml: parser', () => {
  it('reads ide, emit, dest, a single det, totals, transp, cobr, pag, infAdic and protNFe (4.00)', async () => {
    const built = buildNfe({
      recipient: RECIPIENT,
      number: 4321,
      items: [
        {
          code: 'ABC-1',
          gtin: '7891234567895',
          description: 'CAFE 500G',
          ncm: '09012100',
          cest: '1709600',
          cfop: '5405',
          unit: 'CX',
          quantity: '3.5',
          unitPrice: '12.3456789012',
          discount: '1.10',
          freight: '2.00',
          icms: { cst: '10', rate: '18', stMva: '40', stRate: '18' },
          ipiRate: '5',
          pisRate: '1.65',
          cofinsRate: '7.6',
        },
      ],
      installments: [{ dueDate: '2025-04-09' }, { dueDate: '2025-05-09' }],
    });
    const nfe = await parseNfe(built.xml);
    expect(nfe.root).to.equal('nfeProc');
    expect(nfe.version).to.equal('4.00');
    expect(nfe.accessKey).to.equal(built.accessKey);
    expect(nfe.ide).to.include({
      model: '55',
      series: '1',
      number: '4321',
      environment: '1',
      operationType: '1',
      checkDigit: built.accessKey[43],
    });
    expect(nfe.issuer).to.include({ documentKind: 'CNPJ', name: 'FORNECEDOR TESTE LTDA', uf: 'SP', taxRegime: '3' });
    expect(nfe.recipient).to.include({ documentKind: 'CNPJ', document: RECIPIENT.cnpj });
    expect(nfe.items).to.have.length(1);
    const item = nfe.items[0];
    expect(item).to.include({
      lineNumber: 1,
      code: 'ABC-1',
      gtin: '7891234567895',
      description: 'CAFE 500G',
      ncm: '09012100',
      cest: '1709600',
      cfop: '5405',
      unit: 'CX',
      countsInTotal: true,
    });
    expect(item.quantity).to.be.instanceOf(Dec);
    expect(item.quantity.toFixed(4)).to.equal('3.5000');
    expect(item.unitPrice.toFixed(10)).to.equal('12.3456789012');
    expect(item.total.toFixed(2)).to.equal('43.21');
    expect(item.discount.toFixed(2)).to.equal('1.10');
    expect(item.freight.toFixed(2)).to.equal('2.00');
    expect(item.taxes.icms).to.include({ group: 'ICMS10', cst: '10', origin: '0' });
    expect(item.taxes.icms!.stValue!.gt(0)).to.equal(true);
    expect(item.taxes.ipi!.value!.toFixed(2)).to.equal('2.16');
    expect(item.taxes.pis).to.include({ group: 'PISAliq', cst: '01' });
    expect(item.taxes.cofins!.rate!.toString()).to.equal('7.6');
    expect(nfe.totals.invoice.toFixed(2)).to.equal(built.totals.vNF);
    expect(nfe.totals.icmsSt.toFixed(2)).to.equal(built.totals.vST);
    expect(nfe.billing!.installments.map((d) => [d.number, d.dueDate, d.amount.toFixed(2)])).to.deep.equal(
      built.installments.map((d) => [d.number, d.dueDate, d.amount]),
    );
    expect(nfe.billing!.invoice!.net!.toFixed(2)).to.equal(built.totals.vNF);
    expect(nfe.payments).to.have.length(1);
    expect(nfe.payments[0]).to.include({ method: '15', indicator: '1' });
    expect(nfe.transport).to.include({ freightMode: '0' });
    expect(nfe.transport!.volumes[0]).to.include({ quantity: '1', species: 'CAIXA' });
    expect(nfe.additionalInfo!.complementary).to.equal('DOCUMENTO DE TESTE');
    expect(nfe.protocol).to.include({ status: '100', accessKey: built.accessKey, digestValue: built.digestValue });
    expect(nfe.hasSignature).to.equal(true);
  });

  it('reads many det as an ordered list (xml2js arrays)', async () => {
    const built = buildNfe({
      recipient: RECIPIENT,
      items: [1, 2, 3, 4, 5].map((n) => ({ code: `C${n}`, quantity: String(n), unitPrice: '1.01' })),
    });
    const nfe = await parseNfe(built.xml);
    expect(nfe.items.map((i) => [i.lineNumber, i.code, i.total.toFixed(2)])).to.deep.equal([
      [1, 'C1', '1.01'],
      [2, 'C2', '2.02'],
      [3, 'C3', '3.03'],
      [4, 'C4', '4.04'],
      [5, 'C5', '5.05'],
    ]);
  });

  it('keeps decimals exact (no float): 0.1 + 0.2 style values and 10-place unit prices', async () => {
    const built = buildNfe({
      recipient: RECIPIENT,
      items: [
        { quantity: '0.1', unitPrice: '0.2' },
        { quantity: '3', unitPrice: '0.1000000001' },
      ],
    });
    const nfe = await parseNfe(built.xml);
    expect(nfe.items[1].unitPrice.toFixed(10)).to.equal('0.1000000001');
    expect(nfe.items[0].quantity.plus(nfe.items[1].quantity).toString()).to.equal('3.1');
  });

  it('reads Simples Nacional CSOSN groups and CPF recipients', async () => {
    const built = buildNfe({
      recipient: { cpf: '52998224725' },
      issuer: { crt: '1' },
      items: [
        { quantity: '1', unitPrice: '10', icms: { csosn: '102' } },
        { quantity: '1', unitPrice: '100', icms: { csosn: '202', stMva: '50', stRate: '18' } },
      ],
    });
    const nfe = await parseNfe(built.xml);
    expect(nfe.recipient).to.include({ documentKind: 'CPF', document: '52998224725' });
    expect(nfe.items[0].taxes.icms).to.include({ group: 'ICMSSN102', csosn: '102', cst: null });
    expect(nfe.items[1].taxes.icms!.group).to.equal('ICMSSN202');
    expect(nfe.items[1].taxes.icms!.stValue!.toFixed(2)).to.equal('27.00');
  });

  it('reads layout 3.10 where it differs (indPag in ide, pag without detPag, totals without FCP)', async () => {
    const nfe = await parseNfe(as310(buildNfe({ recipient: RECIPIENT, items: [{ quantity: '2', unitPrice: '5' }] }).xml));
    expect(nfe.version).to.equal('3.10');
    expect(nfe.ide.paymentIndicator).to.equal('1');
    expect(nfe.payments).to.have.length(1);
    expect(nfe.payments[0].method).to.equal('90');
    expect(nfe.totals.fcpSt.toString()).to.equal('0');
    expect(nfe.totals.ipiReturned.toString()).to.equal('0');
  });

  it('reads a bare NFe (no nfeProc) without protocol', async () => {
    const nfe = await parseNfe(buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '1' }], protocol: null }).xml);
    expect(nfe.root).to.equal('NFe');
    expect(nfe.protocol).to.equal(null);
  });

  it('refuses other roots and unsupported layouts (400)', async () => {
    const other = await rejection(parseNfe('<cteProc><CTe/></cteProc>'));
    expect([other.kind, other.code]).to.deep.equal(['invalid', 'NFE_UNSUPPORTED_DOCUMENT']);
    const v2 = await rejection(
      parseNfe(
        buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '1' }] }).xml.replace(
          '<infNFe versao="4.00"',
          '<infNFe versao="2.00"',
        ),
      ),
    );
    expect(v2.code).to.equal('NFE_UNSUPPORTED_VERSION');
  });

  it('lists every missing or non-decimal field with its layout path (400 NFE_INVALID_CONTENT)', async () => {
    const xml = buildNfe({
      recipient: RECIPIENT,
      items: [
        { quantity: '1', unitPrice: '1' },
        { quantity: '1', unitPrice: '1' },
      ],
    })
      .xml.replace('<vProd>1.00</vProd>', '<vProd>1,00</vProd>')
      .replace(/<cProd>P2<\/cProd>/, '');
    const e = await rejection(parseNfe(xml));
    expect(e.code).to.equal('NFE_INVALID_CONTENT');
    const paths = (e.extensions.errors as { path: string }[]).map((x) => x.path);
    expect(paths).to.include('nfeProc/NFe/infNFe/det[1]/prod/vProd');
    expect(paths).to.include('nfeProc/NFe/infNFe/det[2]/prod/cProd');
  });

  it('refuses two infNFe (a wrapping attempt) as unreadable', async () => {
    const built = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '1' }] });
    const inf = /<infNFe[\s\S]*<\/infNFe>/.exec(built.xml)![0];
    const e = await rejection(parseNfe(built.xml.replace(inf, inf + inf)));
    expect(e.kind).to.equal('invalid');
  });
});
