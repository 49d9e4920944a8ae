import { config } from '../../core/config';
import type { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';

/*
 * The TEF (transferência eletrônica de fundos) adapter: how a counter's card payment is authorized by
 * an acquirer through the terminal's TEF client (SiTef, PayGo…), answering the identification the
 * NFC-e's card group and the acquirer's receivable carry. Production has no adapter in this service
 * yet (the PDV's own TEF client answers it, and the sale brings the identification); a development
 * process or a test registers the simulator (src/dev/tef-simulator), never a production one
 * (docs/decisions/cash-sessions.md, as docs/decisions/simulator-outside-production.md).
 */
export interface TefRequest {
  terminalId: string;
  /** CREDIT_CARD or DEBIT_CARD. */
  kind: string;
  amount: Dec;
}

export interface TefApproval {
  nsu: string;
  authorizationCode: string;
  /** tBand: 01 Visa, 02 Mastercard… */
  brand: string;
  acquirerCnpj: string;
}

export interface TefAdapter {
  label: string;
  /** The acquirer's answer: an approval, or a decline (throws TefDeclined). */
  authorize(request: TefRequest): Promise<TefApproval>;
}

export class TefDeclined extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

let adapter: TefAdapter | null = null;

/** The TEF this process talks to (null: none — always in production, where the PDV runs the TEF). */
export function registerTefAdapter(a: TefAdapter | null): void {
  adapter = a;
}

export function tefAdapter(): TefAdapter {
  if (!adapter) {
    throw new BusinessRuleError(
      'TEF_NOT_AVAILABLE',
      config.env === 'production'
        ? "No TEF adapter runs in this service: the terminal's TEF client authorizes the card and the sale carries its identification (payments[].card)"
        : 'No TEF adapter is registered in this process (the development start registers the simulator with SEFAZ_SIMULATOR on)',
    );
  }
  return adapter;
}
