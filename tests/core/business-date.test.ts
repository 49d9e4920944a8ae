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
});
