import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { api } from '../support/api';
import { setFilialOptions } from '../support/tenant';
import { NFE, rowsOf, sefazTenant, SefazTenant } from './support';

/*
 * The DF-e flow for a filial whose CNPJ is alphanumeric (its A1 certificate carries that CNPJ):
 * the local authority issues invoices from an alphanumeric-CNPJ supplier, the sync stores them,
 * the XML is downloaded after ciência and imported as a draft with that supplier.
 */

describe('DF-e sync and import with alphanumeric CNPJs (filial, certificate, issuer, keys)', function () {
  this.timeout(60_000);
  const FILIAL = cnpjWithCheckDigits(`K${String(Date.now()).slice(-7)}0001`);
  const ISSUER = {
    cnpj: cnpjWithCheckDigits('ZX9Y8W7V0001'),
    name: 'ATACADO ALFANUMERICO LTDA',
    uf: 'PR',
    stateRegistration: '9012345678',
  };
  let t: SefazTenant;
  let keys: string[];

  before(async () => {
    t = await sefazTenant({ cnpj: FILIAL });
    keys = t.sim.generate({ recipient: FILIAL, issuer: ISSUER, count: 2 }).map((g) => g.accessKey);
  });

  it('the keys carry the issuer CNPJ and a valid check digit; the sync stores both summaries', async () => {
    expect(keys.every((k) => k.slice(6, 20) === ISSUER.cnpj)).to.equal(true);
    const res = await api().post(`${NFE}/consultar`).set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ received: 2, cStat: '138' });
    const rows = await rowsOf('nfe_inbound', t.companyId);
    expect(rows.map((r) => r.issuer_document)).to.deep.equal([ISSUER.cnpj, ISSUER.cnpj]);
  });

  it('download after ciência, then importar: a draft with the alphanumeric supplier', async () => {
    await setFilialOptions(t, 0, { autoCiencia: true });
    const download = await api().post(`${NFE}/download-xml`).set(t.headers()).send({ accessKey: keys[0] });
    expect(download.status, JSON.stringify(download.body)).to.equal(200);
    expect(download.body.inbound).to.include({ kind: 'FULL', hasXml: true });
    const imported = await api().post(`${NFE}/importar`).set(t.headers()).send({ accessKey: keys[0].toLowerCase() });
    expect(imported.status, JSON.stringify(imported.body).slice(0, 400)).to.equal(201);
    expect(imported.body.entryDocument).to.include({ origin: 'NFE_SEFAZ', accessKey: keys[0] });
    expect(imported.body.entryDocument.supplier).to.include({ document: ISSUER.cnpj, name: ISSUER.name });
    const [supplier] = await rowsOf('supplier', t.companyId, 'document = ?', [ISSUER.cnpj]);
    expect(supplier).to.include({ uf: 'PR' });
  });
});
