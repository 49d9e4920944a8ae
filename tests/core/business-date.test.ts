import { expect } from 'chai';
import { businessToday, startOfBusinessDay } from '../../src/core/business-date';

/* The one business calendar (America/Sao_Paulo), without a database. */
describe('business date (core/business-date)', () => {
  it("today turns at midnight in São Paulo, not at the server's or UTC's midnight", () => {
    expect(businessToday(new Date('2026-01-02T02:59:59.999Z'))).to.equal('2026-01-01');
    expect(businessToday(new Date('2026-01-02T03:00:00.000Z'))).to.equal('2026-01-02');
  });

  it('a business day starts at 03:00 UTC today (no DST since 2019)', () => {
    expect(startOfBusinessDay('2026-03-10')).to.equal('2026-03-10 03:00:00.000');
    expect(startOfBusinessDay('2026-12-31')).to.equal('2026-12-31 03:00:00.000');
  });

  it('follows the zone rules, not a fixed offset: under 2018 summer time a day started at 02:00 UTC', () => {
    expect(startOfBusinessDay('2018-12-01')).to.equal('2018-12-01 02:00:00.000');
    expect(businessToday(new Date('2018-12-01T02:30:00Z'))).to.equal('2018-12-01');
  });

  it("the day worked out once per minute is the zone formatter's at every instant (DST years, both sides of midnight, back and forth)", () => {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });
    // Every 7 minutes 13.5 s over nights of the 2018/2019 summer time, its start and end, and today's rules;
    // then instants in a random order (the cache answers for one minute at a time, whatever comes before).
    const instants: number[] = [];
    for (const night of [
      '2018-11-03T22:00:00Z',
      '2018-11-04T01:00:00Z',
      '2019-02-16T22:00:00Z',
      '2026-01-01T23:00:00Z',
      '1913-12-31T23:00:00Z',
    ]) {
      for (let t = Date.parse(night); t < Date.parse(night) + 8 * 3_600_000; t += 433_500) instants.push(t, t + 59_999, t - 1);
    }
    let seed = 37;
    const shuffled = [...instants].sort(() => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % 3) - 1);
    for (const t of [...instants, ...shuffled])
      expect(businessToday(new Date(t)), new Date(t).toISOString()).to.equal(format.format(new Date(t)));
  });
});
