import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { inspectPayload } from '../../src/core/outbox/outbox.service';

/*
 * Every event the suite publishes is inspected (tests/hooks.ts fails the run on a decimal written as
 * a string, naming the event type and member); this holds the inspection itself to account.
 */
describe('Event payloads: money and quantities as JSON numbers', () => {
  it('a Dec becomes its number; decimal strings are named by path; codes, dates and keys are left alone', () => {
    const { payload, decimalStrings } = inspectPayload({
      total: new Dec('318.00'),
      items: [{ quantity: '1.000000', code: '0001', cfop: '5102' }],
      change: { amount: '-2.50' },
      dueDate: '2026-11-27',
      accessKey: '35261112345678000190550010000000011000000010',
      ncm: '8471.30.12',
    });
    expect(payload).to.deep.include({ total: 318, dueDate: '2026-11-27' });
    expect(decimalStrings).to.deep.equal(['items[0].quantity: "1.000000"', 'change.amount: "-2.50"']);
  });
});
