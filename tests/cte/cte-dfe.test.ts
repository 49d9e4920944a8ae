import { expect } from 'chai';
import { api } from '../support/api';
import { allowNextQuery, NFE, rowsOf, sefazTenant, SefazTenant } from '../sefaz/support';

/** Event 610600 (CT-e authorized for the NF-e) in the DF-e feed marks the inbound NF-e "freight CT-e announced". */
describe('CT-e announced by the DF-e feed (610600)', function () {
  this.timeout(60_000);
  let t: SefazTenant;
  let keys: string[];
  const CTE_KEYS = ['35250398765432000198570010000060011000060019', '35250398765432000198570010000060021000060024'];
  const inbound = async (key: string) => (await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [key]))[0];

  before(async () => {
    t = await sefazTenant();
    keys = t.sim.generate({ recipient: t.cnpj, count: 2 }).map((g) => g.accessKey);
    expect((await api().post(`${NFE}/consultar`).set(t.headers())).status).to.equal(200);
    // The first one is acknowledged (ciência): its events then arrive in full, naming the CT-e.
    expect((await api().post(`${NFE}/manifestar`).set(t.headers()).send({ accessKey: keys[0], event: 'CIENCIA' })).status).to.equal(200);
    t.sim.authority.announceCte(keys[0], CTE_KEYS[0]);
    t.sim.authority.announceCte(keys[1], CTE_KEYS[1]);
    await allowNextQuery(t);
    expect((await api().post(`${NFE}/consultar`).set(t.headers())).status).to.equal(200);
  });

  it('marks the records, with the CT-e key when the full event names it (procEventoNFe) and without it from the summary (resEvento)', async () => {
    const [full, summary] = [await inbound(keys[0]), await inbound(keys[1])];
    expect(full.freight_cte_key).to.equal(CTE_KEYS[0]);
    expect(full.freight_cte_announced_at).to.not.equal(null);
    expect(summary.freight_cte_key).to.equal(null);
    expect(summary.freight_cte_announced_at).to.not.equal(null);
    const events = await rowsOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_EVENT' AND event_code = '610600'");
    expect(events).to.have.length(2);
    expect(await rowsOf('audit_log', t.companyId, "entity = 'nfe-inbound' AND action = 'FREIGHT_CTE_ANNOUNCED'")).to.have.length(2);
    const published = (await rowsOf('outbox_event', t.companyId, "type = 'nfe.inbound.freight-cte-announced'")).map((e) =>
      JSON.parse(e.data),
    );
    expect(published.map((d) => [d.accessKey, d.cteAccessKey]).sort()).to.deep.equal(
      [
        [keys[0], CTE_KEYS[0]],
        [keys[1], null],
      ].sort(),
    );
  });

  it('the inbound list and detail show it', async () => {
    const list = await api().get(`${NFE}/inbound/${t.filialHashes[0]}`).set(t.headers());
    const byKey = new Map(list.body.data.map((r: any) => [r.accessKey, r]));
    expect((byKey.get(keys[0]) as any).freightCte).to.deep.include({ announced: true, accessKey: CTE_KEYS[0] });
    expect((byKey.get(keys[1]) as any).freightCte).to.deep.include({ announced: true, accessKey: null });
  });
});
