import type { Response } from 'express';
import { hasScope } from '../../core/auth/tenancy';
import { ForbiddenError } from '../../core/errors';
import type { ValidRequest } from '../../core/http/typed-input';
import { confirmFilial } from '../../core/http/validate';
import type { salesOrderSchemas } from '../sales-order/sales-order.schemas';
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

/** POST /sales-order with flowMode QUICK_SALE (dispatched by the sales-order controller). */
export async function sellAtCounter(req: ValidRequest<typeof salesOrderSchemas.create>, res: Response) {
  if (!hasScope(req.ctx.scopes, 'quick-sale:write')) {
    // An unchecked filial is refused first, as it would have been before the handler.
    await confirmFilial(req);
    throw new ForbiddenError('The token lacks the scope quick-sale:write', 'INSUFFICIENT_SCOPE');
  }
  res.status(201).json(toQuickSaleDto(await sell(req.ctx, req.valid.body, { filialUnchecked: req.filialUnchecked === true })));
}
