import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { toPaymentMethodDto } from './catalog.mapper';
import type { EntityManager } from 'typeorm';
import { Dec } from '../../core/decimal';
import { PaymentKind, PaymentMethod, SettlementMode } from './entities/payment-method.entity';

export interface PaymentMethodInput {
  code: string;
  name: string;
  kind: PaymentKind;
  givesChange?: boolean;
  active?: boolean;
  settlement?: SettlementMode;
  settlementDays?: number;
  feePercent?: Dec;
}

export const paymentMethodService = {
  list(ctx: ActorContext, query: { active?: boolean }): Promise<PaymentMethod[]> {
    const where = query.active === undefined ? { companyId: ctx.companyId } : { companyId: ctx.companyId, active: query.active };
    return readerOf(ctx).find(PaymentMethod, { where, order: { code: 'ASC' } });
  },

  async create(ctx: ActorContext, input: PaymentMethodInput): Promise<PaymentMethod> {
    try {
      return await inTransaction(ctx, async (em) => {
        const method = await em.save(
          em.create(PaymentMethod, {
            companyId: ctx.companyId,
            code: input.code,
            name: input.name,
            kind: input.kind,
            givesChange: input.givesChange ?? input.kind === 'CASH',
            active: input.active ?? true,
            settlement: input.settlement ?? null,
            settlementDays: input.settlementDays ?? null,
            feePercent: input.feePercent ?? new Dec(0),
          }),
        );
        await recordAudit(em, ctx, { entity: 'payment-method', entityId: method.id, action: 'CREATED' });
        const { id, ...rest } = toPaymentMethodDto(method);
        await publishEvent(em, ctx, {
          type: 'payment-method.created',
          aggregateType: 'payment-method',
          aggregateId: method.id,
          data: { paymentMethodId: id, ...rest },
        });
        return method;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('PAYMENT_METHOD_EXISTS', `Payment method ${input.code} already exists`);
      throw err;
    }
  },
};

/** An active payment method of the company by its code (422 when unknown or inactive), for the modules that take payments. */
export async function activePaymentMethod(em: EntityManager, companyId: number, code: string): Promise<PaymentMethod> {
  const method = await em.findOneBy(PaymentMethod, { companyId, code });
  if (!method) throw new BusinessRuleError('PAYMENT_METHOD_NOT_FOUND', `Payment method ${code} does not exist`, { method: code });
  if (!method.active) throw new BusinessRuleError('PAYMENT_METHOD_INACTIVE', `Payment method ${code} is inactive`, { method: code });
  return method;
}
