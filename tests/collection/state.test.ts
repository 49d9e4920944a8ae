import { expect } from 'chai';
import { BOLETO_TRANSITIONS, BoletoAction, boletoMachine } from '../../src/modules/collection/boleto.state';
import { BOLETO_STATUSES, BoletoStatus } from '../../src/modules/collection/entities/boleto.entity';

/* The boleto's state table: every action against every status (SPEC §14). */
describe('Boleto state machine', () => {
  const allowed: Record<BoletoAction, BoletoStatus[]> = {
    register: ['PENDING_REGISTRATION'],
    refuse: ['PENDING_REGISTRATION'],
    pay: ['PENDING_REGISTRATION', 'REGISTERED', 'PARTIALLY_PAID', 'PROTESTED'],
    'write-off': ['REGISTERED', 'PARTIALLY_PAID', 'PROTESTED'],
    protest: ['REGISTERED', 'PARTIALLY_PAID'],
    cancel: ['PENDING_REGISTRATION'],
    instruct: ['REGISTERED', 'PARTIALLY_PAID'],
  };
  for (const action of Object.keys(BOLETO_TRANSITIONS) as BoletoAction[]) {
    it(`${action}: allowed from ${allowed[action].join(', ')} only, refused with BOLETO_<status> otherwise`, () => {
      for (const status of BOLETO_STATUSES) {
        const ok = boletoMachine.canDo({ status }, action);
        expect(ok, `${action} from ${status}`).to.equal(allowed[action].includes(status));
        if (!ok)
          expect(() => boletoMachine.assertAllowed({ status }, action))
            .to.throw()
            .with.property('code', `BOLETO_${status}`);
      }
    });
  }
  it('PAID, WRITTEN_OFF, REFUSED and CANCELLED are final but for a payment at the notary after protest', () => {
    for (const status of ['PAID', 'WRITTEN_OFF', 'REFUSED', 'CANCELLED'] as BoletoStatus[]) {
      expect((Object.keys(BOLETO_TRANSITIONS) as BoletoAction[]).filter((a) => boletoMachine.canDo({ status }, a))).to.deep.equal([]);
    }
    expect(() => boletoMachine.assertTransition({ status: 'REGISTERED' }, 'pay', 'WRITTEN_OFF')).to.throw();
  });
});
