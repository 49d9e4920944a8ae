import type { ActorContext } from '../../core/context';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import { sendInvoiceEmail } from './email.service';

/** After an authorization: the recipient gets the XML and DANFE by email when it has an address (in the background, retried). */
export function afterAuthorized(ctx: ActorContext, doc: OutboundNfe): void {
  if (!doc.summary.recipientEmail) return;
  void sendInvoiceEmail(ctx, doc.id).catch(() => undefined);
}
