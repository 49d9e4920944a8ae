import { expect } from 'chai';
import { api } from '../support/api';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { Counter, counterTenant } from './support';

/*
 * Issue 45 row 4 at the counter: an NFC-e of a Simples Nacional filial says in infCpl what the law makes
 * every document of an ME/EPP optante say (Res. CGSN 140/2018 art. 59: "DOCUMENTO EMITIDO POR ME OU EPP
 * OPTANTE PELO SIMPLES NACIONAL", "NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI"), the same text the NF-e
 * prints (fiscal/statements.ts through invoices' additionalInfoOf). An NFC-e is always to a final
 * consumer (indFinal 1), so CSOSN 101 becomes 102: no ICMS credit statement (Res. CGSN 140/2018 art. 60 II).
 * A Lucro Real filial's NFC-e says none of it.
 */
describe('NFC-e of a Simples Nacional filial: the ME/EPP statements in infCpl (issue 45 row 4)', () => {
  let c: Counter;
  const filialPath = () => `/api/settings/filial/${c.t.filialHashes[0]}`;
  const setFilial = async (body: Record<string, unknown>) => {
    const current = await api().get(filialPath()).set(c.t.headers());
    const res = await api()
      .patch(filialPath())
      .set(c.t.headers())
      .send({ version: current.body.version, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

  before(async () => {
    c = await counterTenant();
    await c.save();
  });

  async function soldNote(): Promise<string> {
    const res = await c.sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument).to.include({ model: 65, status: 'AUTHORIZED' });
    const xml = await api().get(`/api/nfce/${res.body.fiscalDocument.id}/xml`).set(c.t.headers());
    expect(xml.status).to.equal(200);
    if (canValidateXsd) expect(xsdErrors(xml.text)).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(xml.text)).to.equal(null);
    return xml.text;
  }

  it('Simples Nacional (CRT 1): CSOSN 102 on every item, the two statements first in infCpl, no credit statement', async () => {
    await setFilial({ taxRegime: 'SIMPLES_NACIONAL', simplesExcessSublimit: false, simplesCreditRate: 1.25, industrial: false });
    try {
      const xml = await soldNote();
      expect(tag(xml, 'CRT')).to.equal('1');
      expect(tag(xml, 'indFinal')).to.equal('1');
      expect([...xml.matchAll(/<CSOSN>(\d+)<\/CSOSN>/g)].map((m) => m[1])).to.deep.equal(['102', '102']);
      const infCpl = tag(xml, 'infCpl') ?? '';
      expect(infCpl).to.match(
        /^DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL \| NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI( \||$)/,
      );
      expect(infCpl).to.not.contain('PERMITE O APROVEITAMENTO DO CRÉDITO DE ICMS');
    } finally {
      await setFilial({ taxRegime: 'LUCRO_REAL' });
    }
  });

  it('Lucro Real (CRT 3): no Simples statement', async () => {
    const xml = await soldNote();
    expect(tag(xml, 'CRT')).to.equal('3');
    expect(tag(xml, 'infCpl') ?? '').to.not.contain('SIMPLES NACIONAL');
  });
});
