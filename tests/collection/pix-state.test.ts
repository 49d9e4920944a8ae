import { expect } from 'chai';
import type { PixChargeStatus } from '../../src/modules/collection/entities/pix-charge.entity';
import { PIX_CHARGE_STATUSES, PixChargeAction, pixChargeMachine, statusOfPsp } from '../../src/modules/collection/pix.state';

/** The transition table of Pix charges, every action against every status, without a database. */
const EXPECTED: Record<PixChargeAction, Partial<Record<PixChargeStatus, PixChargeStatus[]>>> = {
  confirm: { PENDING: ['ACTIVE', 'COMPLETED'] },
  refuse: { PENDING: ['REFUSED'] },
  sync: { PENDING: ['ACTIVE', 'COMPLETED', 'REMOVED'], ACTIVE: ['COMPLETED', 'REMOVED'], COMPLETED: ['COMPLETED'] },
  complete: { ACTIVE: ['COMPLETED'] },
};

describe('Pix charges: the transition table (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(pixChargeMachine.transitions).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as PixChargeAction[]) {
    for (const status of PIX_CHARGE_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 PIX_CHARGE_${status}`}`, () => {
        const c = { status };
        expect(pixChargeMachine.canDo(c, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => pixChargeMachine.assertAllowed(c, action))
            .to.throw()
            .that.satisfies(
              (e: { code: string; extensions: { currentStatus: string } }) =>
                e.code === `PIX_CHARGE_${status}` && e.extensions.currentStatus === status,
            );
          return;
        }
        for (const to of PIX_CHARGE_STATUSES) {
          if (allowed.includes(to)) expect(() => pixChargeMachine.assertTransition(c, action, to)).not.to.throw();
          else expect(() => pixChargeMachine.assertTransition(c, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }

  it('maps the API Pix statuses of a cob/cobv', () => {
    expect(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'].map(statusOfPsp)).to.deep.equal([
      'ACTIVE',
      'COMPLETED',
      'REMOVED',
      'REMOVED',
    ]);
  });
});
