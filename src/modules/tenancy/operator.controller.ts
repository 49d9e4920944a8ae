import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { operatorSchemas as s } from './operator.schemas';
import { toFilialSettingsDto, toOperatorCompanyDto } from './tenancy.mapper';
import { addFilial, companyWithFiliais, createTenant } from './tenant.service';

/* The operators' routes: companies and filiais (SPEC §1: created by operators, not by tenants' tokens). */

export async function createCompany(req: ValidRequest<typeof s.createCompany>, res: Response): Promise<void> {
  const { company, filiais } = await createTenant({ ...req.valid.body, actor: req.ctx.actor });
  res.status(201).json(toOperatorCompanyDto(company, filiais));
}

export async function company(req: ValidRequest<typeof s.company>, res: Response): Promise<void> {
  const { company, filiais } = await companyWithFiliais(req.valid.params.companyId);
  res.json(toOperatorCompanyDto(company, filiais));
}

export async function createFilial(req: ValidRequest<typeof s.addFilial>, res: Response): Promise<void> {
  res.status(201).json(toFilialSettingsDto(await addFilial(req.valid.params.companyId, req.valid.body, req.ctx.actor)));
}
