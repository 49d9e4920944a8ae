import { expect } from 'chai';
import type { EntryDocumentStatus } from '../../src/modules/entry-document/entities/entry-document.entity';
import {
  assertAllowed,
  assertTransition,
  canDo,
  ENTRY_DOCUMENT_STATUSES,
  EntryDocumentAction,
  TRANSITIONS,
} from '../../src/modules/entry-document/entry-document.state';

/** The transition table of entry documents (SPEC §2), every action against every status, without a database. */
const EXPECTED: Record<EntryDocumentAction, Partial<Record<EntryDocumentStatus, EntryDocumentStatus[]>>> = {
  edit: { DRAFT: ['DRAFT'] },
  delete: { DRAFT: [] },
  confirm: { DRAFT: ['CONFIRMED'] },
  cancel: { DRAFT: ['CANCELLED'], CONFIRMED: ['CANCELLED'] },
  'apportion-freight': { DRAFT: ['DRAFT'], CONFIRMED: ['CONFIRMED'] },
};

describe('Entry documents: the transition table (unit)', () => {
  it('names every action and nothing else', () => {
    expect(Object.keys(TRANSITIONS).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const action of Object.keys(EXPECTED) as EntryDocumentAction[]) {
    for (const status of ENTRY_DOCUMENT_STATUSES) {
      const allowed = EXPECTED[action][status];
      it(`${action} from ${status}: ${allowed ? `allowed → ${allowed.join(', ') || '(removed)'}` : `409 ENTRY_DOCUMENT_${status}`}`, () => {
        const doc = { status };
        expect(canDo(doc, action)).to.equal(!!allowed);
        if (!allowed) {
          expect(() => assertAllowed(doc, action))
            .to.throw()
            .that.satisfies(
              (e: any) =>
                e.code === `ENTRY_DOCUMENT_${status}` &&
                e.kind === 'conflict' &&
                e.extensions.currentStatus === status &&
                e.message.includes(status),
            );
          return;
        }
        expect(() => assertAllowed(doc, action)).not.to.throw();
        for (const to of ENTRY_DOCUMENT_STATUSES) {
          if (allowed.includes(to)) expect(() => assertTransition(doc, action, to)).not.to.throw();
          else expect(() => assertTransition(doc, action, to)).to.throw(/not in the table/);
        }
      });
    }
  }

  it('a refused delete of a CONFIRMED document says to cancel it instead (SPEC §2)', () => {
    expect(() => assertAllowed({ status: 'CONFIRMED' }, 'delete')).to.throw(/cancel it instead/);
  });
});
