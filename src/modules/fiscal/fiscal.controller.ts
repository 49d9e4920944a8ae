import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toFiscalDocumentDto, toRuleDto, toStAgreementDto, toTaxGroupDto, toUfRateDto } from './fiscal.mapper';
import { fiscalSchemas as s } from './fiscal.schemas';
import { createUfRate, listUfRates, loadApproximateTaxes, ruleService, stAgreementService, taxGroupService } from './master-data.service';
import { previewDocument } from './preview.service';

export const taxGroups = {
  list: async (req: ValidRequest<typeof s.listTaxGroups>, res: Response) =>
    res.json(mapPage(await taxGroupService.list(req.ctx, req.valid.query), toTaxGroupDto)),
  get: async (req: ValidRequest<typeof s.getTaxGroup>, res: Response) =>
    res.json(toTaxGroupDto(await taxGroupService.get(req.ctx, req.valid.params.id))),
  create: async (req: ValidRequest<typeof s.createTaxGroup>, res: Response) =>
    res.status(201).json(toTaxGroupDto(await taxGroupService.create(req.ctx, req.valid.body))),
  update: async (req: ValidRequest<typeof s.updateTaxGroup>, res: Response) => {
    const { version, ...patch } = req.valid.body;
    res.json(toTaxGroupDto(await taxGroupService.update(req.ctx, req.valid.params.id, version, patch)));
  },
};

export const rules = {
  list: async (req: ValidRequest<typeof s.listRules>, res: Response) =>
    res.json(mapPage(await ruleService.list(req.ctx, req.valid.query), toRuleDto)),
  get: async (req: ValidRequest<typeof s.getRule>, res: Response) =>
    res.json(toRuleDto(await ruleService.get(req.ctx, req.valid.params.id))),
  create: async (req: ValidRequest<typeof s.createRule>, res: Response) =>
    res.status(201).json(toRuleDto(await ruleService.create(req.ctx, req.valid.body))),
  update: async (req: ValidRequest<typeof s.updateRule>, res: Response) => {
    const { version, ...patch } = req.valid.body;
    res.json(toRuleDto(await ruleService.update(req.ctx, req.valid.params.id, version, patch)));
  },
};

export const stAgreements = {
  list: async (req: ValidRequest<typeof s.listStAgreements>, res: Response) =>
    res.json(mapPage(await stAgreementService.list(req.ctx, req.valid.query), toStAgreementDto)),
  get: async (req: ValidRequest<typeof s.getStAgreement>, res: Response) =>
    res.json(toStAgreementDto(await stAgreementService.get(req.ctx, req.valid.params.id))),
  create: async (req: ValidRequest<typeof s.createStAgreement>, res: Response) =>
    res.status(201).json(toStAgreementDto(await stAgreementService.create(req.ctx, req.valid.body))),
  update: async (req: ValidRequest<typeof s.updateStAgreement>, res: Response) => {
    const { version, ...patch } = req.valid.body;
    res.json(toStAgreementDto(await stAgreementService.update(req.ctx, req.valid.params.id, version, patch)));
  },
};

export const ufRates = {
  list: async (req: ValidRequest<typeof s.listUfRates>, res: Response) =>
    res.json({ data: (await listUfRates(req.ctx, req.valid.query.uf)).map(toUfRateDto) }),
  create: async (req: ValidRequest<typeof s.createUfRate>, res: Response) =>
    res.status(201).json(toUfRateDto(await createUfRate(req.ctx, req.valid.body))),
};

export const approximateTaxes = async (req: ValidRequest<typeof s.loadApproximateTaxes>, res: Response) =>
  res.status(201).json(await loadApproximateTaxes(req.ctx, req.valid.body));

export const preview = async (req: ValidRequest<typeof s.preview>, res: Response) =>
  res.json(toFiscalDocumentDto(await previewDocument(req.ctx, req.valid.body)));
