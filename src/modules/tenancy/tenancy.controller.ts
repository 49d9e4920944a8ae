import type { Request, Response } from 'express';
import { encodeId } from '../../core/hashids';
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
