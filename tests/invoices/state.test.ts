import { expect } from 'chai';
import type { OutboundNfeStatus } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import {
  assertAllowed,
  assertTransition,
  canDo,
  INVOICE_STATUSES,
  InvoiceAction,
  TRANSITIONS,
  UNSETTLED_STATUSES,
} from '../../src/modules/outbound-nfe/invoices.state';
import { correctionProblem } from '../../src/modules/outbound-nfe/events.service';

/** The transition table of outbound NF-e (SPEC §12.2), every action against every status, without a database. */
const EXPECTED: Record<InvoiceAction, Partial<Record<OutboundNfeStatus, OutboundNfeStatus[]>>> = {
  send: { SIGNED: ['SENT'], SENT: ['SENT'] },
  record: { SENT: ['AUTHORIZED', 'REJECTED', 'DENIED'] },
  contingency: { SENT: ['SIGNED'], SIGNED: ['SIGNED'] },
  resend: { REJECTED: ['SIGNED'] },
  void: { REJECTED: ['VOIDED'] },
  cancel: { AUTHORIZED: ['CANCELLED'] },
  correct: { AUTHORIZED: ['AUTHORIZED'] },
  withdraw: { REJECTED: ['REJECTED'], DENIED: ['DENIED'] },
};

describe('Invoices: the transition table (unit)', () => {
  it('names every action and nothing else; SIGNED and SENT are what the recovery pass settles', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
    expect(UNSETTLED_STATUSES).to.deep.equal(['SIGNED', 'SENT']);
  });

  for (const action of Object.keys(EXPECTED) as InvoiceAction[]) {
    for (const status of INVOICE_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ')}` : `409 INVOICE_${status}`}`, () => {
        const doc = { status };
        expect(canDo(doc, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(doc, action))
            .to.throw()
            .that.satisfies((e: any) => e.code === `INVOICE_${status}`);
          return;
        }
        expect(() => assertAllowed(doc, action)).not.to.throw();
        for (const to of INVOICE_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(doc, action, to)).not.to.throw();
          else expect(() => assertTransition(doc, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }

  it('a carta de correção may not touch values, taxes, parties or dates', () => {
    expect(correctionProblem('Endereco de entrega: Rua das Palmeiras, 45')).to.equal(null);
    expect(correctionProblem('Transportadora correta: Rapido Sul Transportes')).to.equal(null);
    expect(correctionProblem('quantidade correta 5 caixas')).to.match(/values/);
    expect(correctionProblem('CFOP com ICMS errado')).to.match(/taxes/);
    expect(correctionProblem('CNPJ do destinatario 12.345.678/0001-95')).to.match(/parties/);
    expect(correctionProblem('data de saida 2026-11-30')).to.match(/dates/);
  });
});
