import type { Request, Response } from 'express';
import { dataSource } from '../../core/db/data-source';
import { encodeId } from '../../core/hashids';
import { Company } from './entities/company.entity';
import { findFiliais } from './tenant.service';

/** GET /api/me: who the token is and which filiais it may use (branch picker). */
export async function me(req: Request, res: Response): Promise<void> {
  const em = dataSource.manager;
  const company = await em.findOneByOrFail(Company, { id: req.ctx.companyId });
  const filiais = await findFiliais(company.id, req.ctx.grantedFiliais, em);
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
