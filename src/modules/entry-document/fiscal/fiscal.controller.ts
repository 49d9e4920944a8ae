import type { Request, Response } from 'express';
import { mapPage } from '../../../core/pagination';
import { listThirdPartyStock, ThirdPartyStockQuery } from '../../stock/third-party-stock.service';
import * as rules from './cfop-rule.service';
import { cfopRuleDto, thirdPartyBalanceDto } from './fiscal.mapper';

/** Thin handlers of the CFOP rules, the fiscal defaults and the third-party stock list. */

export async function listRules(req: Request, res: Response) {
  res.json(mapPage(await rules.listCfopRules(req.ctx, req.valid.query as rules.CfopRuleListQuery), cfopRuleDto));
}

export async function defaults(_req: Request, res: Response) {
  res.json(rules.fiscalDefaults());
}

export async function createRule(req: Request, res: Response) {
  res.status(201).json(cfopRuleDto(await rules.createCfopRule(req.ctx, req.valid.body)));
}

export async function patchRule(req: Request, res: Response) {
  const { version, ...patch } = req.valid.body;
  res.json(cfopRuleDto(await rules.patchCfopRule(req.ctx, req.valid.params.id, version, patch)));
}

export async function deleteRule(req: Request, res: Response) {
  await rules.deleteCfopRule(req.ctx, req.valid.params.id);
  res.status(204).end();
}

export async function thirdPartyStock(req: Request, res: Response) {
  const page = await listThirdPartyStock(req.ctx, req.valid.params.filialId, req.valid.query as ThirdPartyStockQuery);
  res.json(mapPage(page, thirdPartyBalanceDto));
}
