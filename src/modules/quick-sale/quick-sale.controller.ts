import type { Response } from 'express';
import { hasScope } from '../../core/auth/tenancy';
import { ForbiddenError } from '../../core/errors';
import type { ValidRequest } from '../../core/http/typed-input';
import { confirmFilial } from '../../core/http/validate';
import { respondAfterCommit } from '../../core/idempotency/idempotency.middleware';
import { createFromRequest, toSalesOrderDto } from '../sales-order';
import { quickSaleSchemas as s } from './quick-sale.schemas';
import { toConfigurationDto, toQuickSaleDto } from './quick-sale.mapper';
import { sellAtCounter as sell } from './quick-sale.service';
import { quickSaleConfigurationService } from './quick-sale-configuration.service';

export async function getConfiguration(req: ValidRequest<typeof s.getConfiguration>, res: Response) {
  const { configuration, configured } = await quickSaleConfigurationService.get(req.ctx, req.valid.params.filialId);
  res.json(toConfigurationDto(configuration, configured));
}

export async function putConfiguration(req: ValidRequest<typeof s.putConfiguration>, res: Response) {
  const saved = await quickSaleConfigurationService.put(req.ctx, req.valid.params.filialId, req.valid.body);
  res.json(toConfigurationDto(saved, true));
}

export async function validateConfiguration(req: ValidRequest<typeof s.validateConfiguration>, res: Response) {
  res.json(await quickSaleConfigurationService.validate(req.ctx, req.valid.params.filialId));
}

/**
 * POST /sales-order: an order or a quote is sales-order's create; flowMode QUICK_SALE is the counter
 * sale, which also needs quick-sale:write (the route itself needs sales-order:write). The x-filial-id
 * filial is left to the handler (RouteDef.filialCheck): the counter sale reads it with its first
 * statements; the standard create checks it first.
 */
export async function createSalesOrder(req: ValidRequest<typeof s.createSalesOrder>, res: Response) {
  if (req.valid.body.flowMode !== 'QUICK_SALE') {
    await confirmFilial(req);
    res.status(201).json(toSalesOrderDto(await createFromRequest(req.ctx, req.valid.body)));
    return;
  }
  if (!hasScope(req.ctx.scopes, 'quick-sale:write')) {
    // An unchecked filial is refused first, as it would have been before the handler.
    await confirmFilial(req);
    throw new ForbiddenError('The token lacks the scope quick-sale:write', 'INSUFFICIENT_SCOPE');
  }
  const sale = await sell(req.ctx, req.valid.body, { filialUnchecked: req.filialUnchecked === true });
  const transmit = sale.transmitAfterCommit;
  // A keyed sale's NFC-e goes to the authority after the sale (and its key) committed.
  await respondAfterCommit(
    req,
    res,
    201,
    toQuickSaleDto(sale),
    transmit && (async () => toQuickSaleDto({ ...sale, fiscal: await transmit() })),
  );
}
