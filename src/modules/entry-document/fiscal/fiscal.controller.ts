import type { Request, Response } from 'express';
import type { ValidRequest } from '../../../core/http/typed-input';
import { mapPage } from '../../../core/pagination';
import { listThirdPartyStock } from '../../stock';
import * as rules from './cfop-rule.service';
import { cfopRuleDto, thirdPartyBalanceDto } from './fiscal.mapper';
import { fiscalSchemas as s } from './fiscal.schemas';

/** Thin handlers of the CFOP rules, the fiscal defaults and the third-party stock list. */

export async function listRules(req: ValidRequest<typeof s.listRules>, res: Response) {
  res.json(mapPage(await rules.listCfopRules(req.ctx, req.valid.query), cfopRuleDto));
}

export async function defaults(_req: Request, res: Response) {
  res.json(rules.fiscalDefaults());
}

export async function createRule(req: ValidRequest<typeof s.createRule>, res: Response) {
  res.status(201).json(cfopRuleDto(await rules.createCfopRule(req.ctx, req.valid.body)));
}

export async function patchRule(req: ValidRequest<typeof s.patchRule>, res: Response) {
  const { version, ...patch } = req.valid.body;
  res.json(cfopRuleDto(await rules.patchCfopRule(req.ctx, req.valid.params.id, version, patch)));
}

export async function deleteRule(req: ValidRequest<typeof s.deleteRule>, res: Response) {
  await rules.deleteCfopRule(req.ctx, req.valid.params.id);
  res.status(204).end();
}

export async function thirdPartyStock(req: ValidRequest<typeof s.thirdPartyStock>, res: Response) {
  const page = await listThirdPartyStock(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json(mapPage(page, thirdPartyBalanceDto));
}
