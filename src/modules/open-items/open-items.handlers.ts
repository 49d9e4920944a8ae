import type { Response } from 'express';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';

/*
 * The three routes every side has alike (an item with its settlements, settle, reverse), as express
 * handlers: the side gives its use cases and its DTOs, and the name of the route parameter that
 * carries the settlement's id (paymentId, receiptId). Bodies and statuses are the side's own DTOs.
 */

interface SettlementRequest<B> {
  ctx: TenantContext;
  valid: { params: Record<string, number>; body: B };
}

export interface SettlementRoutes<D, O, B> {
  detail: (ctx: TenantContext, id: number) => Promise<D>;
  detailDto: (detail: D, today: string) => unknown;
  settle: (ctx: TenantContext, id: number, body: B) => Promise<O>;
  reverse: (ctx: TenantContext, settlementId: number, reason: string) => Promise<O>;
  resultDto: (outcome: O, today: string) => unknown;
  settlementParam: string;
}

export function settlementHandlers<D, O, B>(routes: SettlementRoutes<D, O, B>) {
  return {
    detail: async (req: SettlementRequest<unknown>, res: Response) => {
      res.json(routes.detailDto(await routes.detail(req.ctx, req.valid.params.id), businessToday()));
    },
    settle: async (req: SettlementRequest<B>, res: Response) => {
      res.status(201).json(routes.resultDto(await routes.settle(req.ctx, req.valid.params.id, req.valid.body), businessToday()));
    },
    reverse: async (req: SettlementRequest<{ reason: string }>, res: Response) => {
      res.json(
        routes.resultDto(await routes.reverse(req.ctx, req.valid.params[routes.settlementParam], req.valid.body.reason), businessToday()),
      );
    },
  };
}
