import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { encodeId } from '../../core/hashids';
import { settingsSchemas as s } from './settings.schemas';
import { findCompanySettings, findFilialSettings, updateCompanySettings, updateFilialSettings } from './settings.service';
import { toCompanySettingsDto, toFilialSettingsDto } from './tenancy.mapper';
import { grantedTenant } from './tenant.service';

/** GET /api/me: who the token is and which filiais it may use (branch picker). */
export async function me(req: Request, res: Response): Promise<void> {
  const { company, filiais } = await grantedTenant(req.ctx);
  res.json({
    user: req.ctx.actor,
    scopes: req.ctx.scopes,
    company: { id: encodeId('company', company.id), name: company.name, cnpj: company.cnpj },
    filiais: filiais.map((f) => ({
      id: encodeId('filial', f.id),
      name: f.name,
      cnpj: f.cnpj,
      uf: f.uf,
      nfeEnvironment: f.nfeEnvironment,
      allowNegativeStock: f.allowNegativeStock,
    })),
    tokenExpiresAt: req.token ? new Date(req.token.exp * 1000).toISOString() : null,
  });
}

export async function filialSettings(req: ValidRequest<typeof s.filial>, res: Response): Promise<void> {
  res.json(toFilialSettingsDto(await findFilialSettings(req.ctx, req.valid.params.filialId)));
}

export async function patchFilialSettings(req: ValidRequest<typeof s.patchFilial>, res: Response): Promise<void> {
  const { version, ...patch } = req.valid.body;
  res.json(toFilialSettingsDto(await updateFilialSettings(req.ctx, req.valid.params.filialId, version, patch)));
}

export async function companySettings(req: Request, res: Response): Promise<void> {
  res.json(toCompanySettingsDto(await findCompanySettings(req.ctx)));
}

export async function patchCompanySettings(req: ValidRequest<typeof s.patchCompany>, res: Response): Promise<void> {
  const { version, ...patch } = req.valid.body;
  res.json(toCompanySettingsDto(await updateCompanySettings(req.ctx, version, patch)));
}
