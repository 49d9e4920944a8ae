import crypto from 'node:crypto';
import { Dec } from '../../core/decimal';
import { registerTefAdapter, TefAdapter, TefApproval, TefDeclined, TefRequest } from '../../modules/cash-sessions';

/*
 * A TEF simulator for development and tests (never loaded by a production start: src/main.ts imports
 * it dynamically behind SEFAZ_SIMULATOR, as the tax-authority simulator). It approves card payments up
 * to its limit with an increasing NSU, a six-digit authorization code, the brand by the card's kind
 * (credit: Visa 01, debit: Mastercard 02) and a fixed acquirer (Cielo's CNPJ); above the limit it
 * declines ("saldo insuficiente"), so the decline path can be driven.
 */
export class TefSimulator implements TefAdapter {
  readonly label = 'local TEF simulator';
  readonly authorized: (TefRequest & TefApproval)[] = [];
  private nsu = 0;

  constructor(
    readonly limit = new Dec(5000),
    readonly acquirerCnpj = '01027058000191',
  ) {}

  async authorize(request: TefRequest): Promise<TefApproval> {
    if (request.amount.gt(this.limit)) throw new TefDeclined('saldo insuficiente');
    this.nsu += 1;
    const approval: TefApproval = {
      nsu: String(this.nsu).padStart(9, '0'),
      authorizationCode: String(crypto.randomInt(100_000, 999_999)),
      brand: request.kind === 'DEBIT_CARD' ? '02' : '01',
      acquirerCnpj: this.acquirerCnpj,
    };
    this.authorized.push({ ...request, ...approval });
    return approval;
  }
}

/** Registers a TEF simulator in this process (null: none) and answers it. */
export function useTefSimulator(sim: TefSimulator | null = new TefSimulator()): TefSimulator | null {
  registerTefAdapter(sim);
  return sim;
}
