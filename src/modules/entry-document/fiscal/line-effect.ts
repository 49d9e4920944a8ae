import { entryOperation } from './cfop-table';
import type { NfePurpose, OperationClass, StockTarget } from './fiscal.types';
import { CLASS_EFFECTS, CreditAdmission, PURPOSES } from './operation-rules';

/*
 * What confirming a line posts: its class's effect, adjusted where its entry CFOP says the operation
 * is split over several documents (cfop-table `posting`: a delivery billed before, a venda à ordem,
 * consigned goods already held). The adjustment applies only while the line keeps the class its entry
 * CFOP names (a class chosen on the draft or forced by finNFe takes the class's own effect).
 */

export interface LineEffect {
  stock: StockTarget;
  payable: boolean;
  credits: CreditAdmission;
  refused: boolean;
  /** The goods leave the issuer's third-party stock as they enter own stock. */
  fromThirdParty: boolean;
  effect: string;
}

const NONE: CreditAdmission = { icms: false, pisCofins: false, ipi: false, cbsIbs: false };

export function lineEffect(operationClass: OperationClass | null, entryCfop: string | null, purpose: NfePurpose): LineEffect | null {
  if (!operationClass) return null;
  const base = CLASS_EFFECTS[operationClass];
  const payable = operationClass === 'VALUE_ADJUSTMENT' ? PURPOSES[purpose].payable : base.payable;
  const op = entryOperation(entryCfop);
  const posting = op?.operationClass === operationClass ? op.posting : undefined;
  if (!posting)
    return { stock: base.stock, payable, credits: base.credits, refused: base.refused, fromThirdParty: false, effect: base.effect };
  return {
    stock: posting.stock ?? base.stock,
    payable: posting.payable ?? payable,
    credits: posting.noCredit ? NONE : base.credits,
    refused: base.refused,
    fromThirdParty: !!posting.fromThirdParty,
    effect: posting.effect,
  };
}
