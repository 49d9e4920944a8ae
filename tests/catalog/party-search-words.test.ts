import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { findCustomerIds, findPartyIds } from '../../src/modules/catalog/party-search-index';
import { PartySearchWords1795739230933 as MysqlMigration } from '../../migrations/mysql/1795739230933-PartySearchWords';
import { PartySearchWords1795739230933 as SqliteMigration } from '../../migrations/sqlite/1795739230933-PartySearchWords';
import { api } from '../support/api';
import { makeSeller } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * Every row of the party word index carries all its party's words (party_search_token.words), so a
 * term of several words walks its first word's range and tests the others on the same row.
 */
describe('Party word index: the words on every row', () => {
  let t: TestTenant;
  const rowsOf = async (partyType: string, partyId: number) =>
    (await dataSource.query(
      'SELECT token, words FROM party_search_token WHERE company_id = ? AND party_type = ? AND party_id = ? ORDER BY token',
      [t.companyId, partyType, partyId],
    )) as {
      token: string;
      words: string;
    }[];
  const wordSet = (words: string) => words.split(' ').filter(Boolean).sort();
  const customerIds = async (term: string) =>
    (await api().get('/api/catalog/customers').query({ search: term }).set(t.headers())).body.data.map((c: { id: string }) => c.id).sort();

  before(async () => {
    t = await createTestTenant();
  });

  it('written with the party, rewritten on rename; each further word of a term must start one of them', async () => {
    const post = (body: object) => api().post('/api/catalog/customers').set(t.headers()).send(body);
    const maria = (await post({ name: 'Maria da Silva', tradeName: 'Empório São João' })).body;
    const mario = (await post({ name: 'Mário Silveira' })).body;
    const [{ id: mariaId }] = await dataSource.query('SELECT id FROM customer WHERE company_id = ? AND name = ?', [
      t.companyId,
      'Maria da Silva',
    ]);
    const rows = await rowsOf('CUSTOMER', Number(mariaId));
    expect(rows.map((r) => r.token)).to.deep.equal(['DA', 'EMPORIO', 'JOAO', 'MARIA', 'SAO', 'SILVA']);
    for (const r of rows) expect(r.words).to.equal(' MARIA DA SILVA EMPORIO SAO JOAO');

    expect(await customerIds('maria silva')).to.deep.equal([maria.id]);
    expect(await customerIds('mar silv')).to.deep.equal([maria.id, mario.id].sort());
    expect(await customerIds('silv joao')).to.deep.equal([maria.id]);
    expect(await customerIds('maria emp sao')).to.deep.equal([maria.id]);
    // The start of a word, never its middle; every word must match.
    expect(await customerIds('maria ilva')).to.deep.equal([]);
    expect(await customerIds('mario silva')).to.deep.equal([]);

    const renamed = await api()
      .patch(`/api/catalog/customers/${maria.id}`)
      .set(t.headers())
      .send({ name: 'Maria Souza', version: maria.version });
    expect(renamed.status).to.equal(200);
    for (const r of await rowsOf('CUSTOMER', Number(mariaId))) expect(r.words).to.equal(' MARIA SOUZA EMPORIO SAO JOAO');
    expect(await customerIds('maria silva')).to.deep.equal([]);
    expect(await customerIds('maria souza')).to.deep.equal([maria.id]);
  });

  it('sellers by name and alias words together; the sales-order resolution finds the same parties', async () => {
    const seller = await makeSeller(t, { name: 'Carla Mendes', alias: 'Carlinha' });
    expect(await findPartyIds(dataSource.manager, t.companyId, 'SELLER', 'carlinha mend', 10)).to.deep.equal([seller.id]);
    expect(await findPartyIds(dataSource.manager, t.companyId, 'SELLER', 'carla souza', 10)).to.deep.equal([]);
    const [{ id }] = await dataSource.query('SELECT id FROM customer WHERE company_id = ? AND name = ?', [t.companyId, 'Mário Silveira']);
    expect(await findCustomerIds(dataSource.manager, t.companyId, 'silveira mario', 10)).to.deep.equal([Number(id)]);
  });

  it("the migration fills the words of rows indexed before it from their party's own rows", async () => {
    const migration = isMysql ? new MysqlMigration() : new SqliteMigration();
    const runner = dataSource.createQueryRunner();
    try {
      // Back to the table as it was (no words), then forward again.
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows: { party_type: string; party_id: number; token: string; words: string }[] = await dataSource.query(
      'SELECT party_type, party_id, token, words FROM party_search_token WHERE company_id = ?',
      [t.companyId],
    );
    expect(rows.length).to.be.greaterThan(5);
    const tokens = new Map<string, string[]>();
    for (const r of rows) tokens.set(`${r.party_type}:${r.party_id}`, [...(tokens.get(`${r.party_type}:${r.party_id}`) ?? []), r.token]);
    for (const r of rows) {
      expect(r.words.startsWith(' ')).to.equal(true);
      expect(wordSet(r.words)).to.deep.equal([...tokens.get(`${r.party_type}:${r.party_id}`)!].sort());
    }
    expect(await customerIds('maria souza')).to.have.length(1);
    expect(await customerIds('emporio joao')).to.have.length(1);
  });
});
