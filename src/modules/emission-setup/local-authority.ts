import { config } from '../../core/config';
import type { ActorContext } from '../../core/context';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { BusinessRuleError } from '../../core/errors';
import { getCertificate, SefazCertificate, setFilialEndpoint } from '../sefaz';
import { Filial } from '../tenancy';

/*
 * The local tax-authority simulator lives outside the production modules (src/dev/sefaz-simulator);
 * when a development process (or a test) runs one, it registers here how a filial is attached to it,
 * so the attach route works without production code importing the simulator.
 */
export interface LocalAuthorityAttach {
  url: string;
  label: string;
  /** Points the filial at the simulator and, per `opts.certificate`, issues it an A1 of the simulator's CA. */
  attach(ctx: ActorContext, filial: Filial, opts: { certificate?: 'ISSUE' | 'KEEP' }): Promise<{ certificateIssued: boolean }>;
}

let running: LocalAuthorityAttach | null = null;

/** The simulator this process runs (null: none, always in production). */
export function registerLocalAuthority(authority: LocalAuthorityAttach | null): void {
  running = authority;
}

/** POST /settings/filial/:filialId/simulator: the filial (checked by the route) attached to this process's simulator. */
export async function attachToLocalAuthority(
  ctx: ActorContext,
  filialId: number,
  opts: { certificate?: 'ISSUE' | 'KEEP' },
): Promise<{ url: string; label: string; certificateIssued: boolean; certificate: SefazCertificate | null }> {
  const authority = running;
  if (!authority) {
    throw new BusinessRuleError(
      'SIMULATOR_NOT_RUNNING',
      config.env === 'production'
        ? 'The local tax-authority simulator never runs in production'
        : 'The local tax-authority simulator is not running in this process: start the service with SEFAZ_SIMULATOR=true (the default on the embedded database)',
    );
  }
  const filial = await readerOf(NO_UNIT).findOneByOrFail(Filial, { id: filialId, companyId: ctx.companyId });
  const { certificateIssued } = await authority.attach(ctx, filial, opts);
  const certificate = await getCertificate(ctx.companyId, filialId).catch(() => null);
  return { url: authority.url, label: authority.label, certificateIssued, certificate };
}

/** DELETE /settings/filial/:filialId/simulator: the filial back to its UF's authorizer (its certificate stays). */
export async function detachFromLocalAuthority(ctx: ActorContext, filialId: number): Promise<void> {
  await setFilialEndpoint(ctx.companyId, filialId, null);
}
