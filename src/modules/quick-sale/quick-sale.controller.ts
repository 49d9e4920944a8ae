import type { Request, Response } from 'express';
import { toConfigurationDto } from './quick-sale.mapper';
import { quickSaleConfigurationService } from './quick-sale-configuration.service';

export async function getConfiguration(req: Request, res: Response) {
  const { configuration, configured } = await quickSaleConfigurationService.get(req.ctx, req.valid.params.filialId);
  res.json(toConfigurationDto(configuration, configured));
}

export async function putConfiguration(req: Request, res: Response) {
  const saved = await quickSaleConfigurationService.put(req.ctx, req.valid.params.filialId, req.valid.body);
  res.json(toConfigurationDto(saved, true));
}

export async function validateConfiguration(req: Request, res: Response) {
  res.json(await quickSaleConfigurationService.validate(req.ctx, req.valid.params.filialId));
}
