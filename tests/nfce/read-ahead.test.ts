import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { strayStatements } from '../../src/core/db/batching-query-runner';
import { isMysql } from '../../src/core/db/engine';
import { abandonCounterNote, type OpenedCounterNote } from '../../src/modules/nfce';
import { recordStatements, shapeOf } from '../support/statements';
import { Counter, counterTenant, notesOf } from './support';

/*
 * The note's reads sent ahead with the sale's first round trip (issue 51): a filial whose last sale
 * issued an NFC-e has them read with the sale's own, its série's number taken only where auto_issue is
 * on. A wrong guess costs reads, never a number: the série's next number is checked after every sale.
 */
describe('NFC-e reads sent with the sale’s first round trip', function () {
  this.timeout(60_000);
  let c: Counter;

  const nextNumber = async (): Promise<number> => {
    const rows: { next_number: number | string }[] = await dataSource.query(
      'SELECT next_number FROM invoice_series WHERE company_id = ? AND filial_id = ? AND model = 65',
      [c.t.companyId, c.t.filialIds[0]],
    );
    return Number(rows[0].next_number);
  };

  before(async () => {
    c = await counterTenant();
    await c.save();
    expect((await c.sell()).body.fiscalDocument).to.include({ status: 'AUTHORIZED' });
  });

  it('auto issue turned off after a sale with its note: the next sale has none and takes no number', async () => {
    const before = await nextNumber();
    const notes = (await notesOf(c.t)).length;
    await c.save({ autoIssue: false });
    const { result: res, roundTrips } = await recordStatements(() => c.sell());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.not.have.property('fiscalDocument');
    expect(await nextNumber()).to.equal(before);
    expect(await notesOf(c.t)).to.have.length(notes);
    if (isMysql) {
      // The guess (the last sale issued one) sent the note's reads; the série's UPDATE matched nothing.
      const shapes = roundTrips.map((trip) => trip.map(shapeOf));
      expect(shapes).to.have.length(2);
      expect(shapes[0]).to.include.members(['SELECT nfce_configuration', 'UPDATE invoice_series', 'SELECT fiscal_data_version']);
      expect(shapes[1]).to.not.include('INSERT nfce_document');
    }
  });

  it('auto issue on again: the first sale reads the note in its second round trip, the next in its first; numbers follow on', async () => {
    const before = await nextNumber();
    await c.save({ autoIssue: true });
    const first = await recordStatements(() => c.sell());
    expect(first.result.body.fiscalDocument).to.include({ status: 'AUTHORIZED', number: before });
    const second = await recordStatements(() => c.sell());
    expect(second.result.body.fiscalDocument).to.include({ status: 'AUTHORIZED', number: before + 1 });
    expect(await nextNumber()).to.equal(before + 2);
    if (isMysql) {
      // The last sale issued none: the note's reads waited for the setting (4 round trips), then the guess holds (3).
      expect(first.roundTrips).to.have.length(4);
      expect(first.roundTrips[1].map(shapeOf)).to.include('UPDATE invoice_series');
      expect(second.roundTrips).to.have.length(3);
      expect(second.roundTrips[0].map(shapeOf)).to.include('UPDATE invoice_series');
    }
  });

  it('a sale refused after its note’s reads went out gives its number back and leaves no statement behind', async () => {
    const before = await nextNumber();
    const notes = (await notesOf(c.t)).length;
    const stray = strayStatements.count;
    const res = await c.sell({ payments: [{ method: 'CASH', amount: '1.00' }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.code).to.equal('PAYMENT_INSUFFICIENT');
    expect(await nextNumber()).to.equal(before);
    expect(await notesOf(c.t)).to.have.length(notes);
    expect(strayStatements.count).to.equal(stray);
    // The counter goes on numbering without a gap.
    expect((await c.sell()).body.fiscalDocument).to.include({ status: 'AUTHORIZED', number: before });
  });

  it('a guess abandoned after its UPDATE took a number (the setting turned on between the two reads): 409, so the rollback gives it back', async () => {
    const opened = (numberTaken: boolean) =>
      ({
        speculative: true,
        settled: Promise.resolve({ settings: { status: 'fulfilled', value: { numberTaken } } }),
      }) as unknown as OpenedCounterNote;
    await abandonCounterNote(opened(false));
    const err = await abandonCounterNote(opened(true)).then(
      () => null,
      (e: unknown) => e as { code?: string; status?: number },
    );
    expect(err).to.include({ code: 'CONCURRENT_UPDATE' });
  });
});
