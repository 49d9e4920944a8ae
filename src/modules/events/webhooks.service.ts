import crypto from 'node:crypto';
import { In } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { NotFoundError } from '../../core/errors';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookSubscription } from './entities/webhook-subscription.entity';
import { currentHead } from './events.service';

const notFound = () => new NotFoundError('Webhook');

export const webhookService = {
  /** New subscriptions receive events from now on; the secret is returned this once. */
  async create(
    ctx: TenantContext,
    input: { url: string; types: string[]; description?: string | null },
  ): Promise<{ subscription: WebhookSubscription; secret: string }> {
    const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
    // From now: events committed before this point are positioned up to the head, and not sent.
    const head = await currentHead(ctx);
    const subscription = await inTransaction(ctx, async (em) => {
      const saved = await em.save(
        em.create(WebhookSubscription, {
          companyId: ctx.companyId,
          url: input.url,
          types: input.types,
          description: input.description ?? null,
          secret,
          active: true,
          lastPosition: head,
        }),
      );
      await recordAudit(em, ctx, {
        entity: 'webhook',
        entityId: saved.id,
        action: 'CREATED',
        changes: { url: [null, input.url], types: [null, input.types] },
      });
      return saved;
    });
    return { subscription, secret };
  },

  /** Active subscriptions, oldest first: a two-phase list. */
  list(ctx: TenantContext, page: PageRequest): Promise<Page<WebhookSubscription>> {
    const em = readerOf(ctx);
    const qb = em
      .createQueryBuilder(WebhookSubscription, 'w')
      .where('w.company_id = :companyId AND w.active = :active', { companyId: ctx.companyId, active: true });
    return paginate(
      qb,
      [{ column: 'w.id', direction: 'ASC' }],
      page,
      (ids) => em.findBy(WebhookSubscription, { companyId: ctx.companyId, id: In(ids) }),
      (w) => w.id,
    );
  },

  /** Stops deliveries; pending ones are dropped, delivered ones stay as history. */
  async remove(ctx: TenantContext, id: number): Promise<void> {
    await inTransaction(ctx, async (em) => {
      const found = await em.findOneBy(WebhookSubscription, { id, companyId: ctx.companyId, active: true });
      if (!found) throw notFound();
      await em.update(WebhookSubscription, { id, companyId: ctx.companyId }, { active: false });
      await em.delete(WebhookDelivery, { subscriptionId: id, companyId: ctx.companyId, status: 'PENDING' });
      await recordAudit(em, ctx, { entity: 'webhook', entityId: id, action: 'DELETED' });
    });
  },

  async deliveries(ctx: TenantContext, id: number, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const em = readerOf(ctx);
    if (!(await em.existsBy(WebhookSubscription, { id, companyId: ctx.companyId }))) throw notFound();
    const qb = em
      .createQueryBuilder(WebhookDelivery, 'd')
      .where('d.company_id = :companyId AND d.subscription_id = :id', { companyId: ctx.companyId, id });
    return paginate(
      qb,
      [{ column: 'd.id', direction: 'DESC' }],
      page,
      (ids) => em.createQueryBuilder(WebhookDelivery, 'd').where('d.id IN (:...ids)', { ids }).getMany(),
      (d) => d.id,
    );
  },
};
