import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import type { Filial } from '../tenancy';
import { grantedTenant } from '../tenancy';
import { loadFilial } from '../sefaz';
import { filialsWithCertificate, findSchedule, schedulesOf } from './dfe-schedule.repository';
import { findState } from './dfe-state.repository';
import type { DfeSchedule } from './entities/dfe-schedule.entity';
import { DfeState } from './entities/dfe-state.entity';
import { In } from 'typeorm';

/** Read side of the scheduled DF-e sync: per filial, its settings, last and next run, and its standing with the authority. */

export interface ScheduleView {
  filial: Filial;
  hasCertificate: boolean;
  schedule: DfeSchedule | null;
  state: DfeState | null;
}

export async function filialSchedule(ctx: TenantContext, filialId: number): Promise<ScheduleView> {
  const filial = await loadFilial(ctx.companyId, filialId, readerOf(ctx));
  const [certified, schedule, state] = await Promise.all([
    filialsWithCertificate(ctx.companyId, [filialId]),
    findSchedule(ctx.companyId, filialId),
    findState(ctx.companyId, filialId),
  ]);
  return { filial, hasCertificate: certified.has(filialId), schedule, state };
}

/** Every active filial the token grants, in id order (three queries whatever their number). */
export async function companySchedule(ctx: TenantContext): Promise<ScheduleView[]> {
  const { filiais } = await grantedTenant(ctx);
  const ids = filiais.map((f) => f.id);
  const [certified, schedules, states] = await Promise.all([
    filialsWithCertificate(ctx.companyId, ids),
    schedulesOf(ctx.companyId, ids),
    ids.length ? readerOf(ctx).findBy(DfeState, { companyId: ctx.companyId, filialId: In(ids) }) : Promise.resolve([]),
  ]);
  const scheduleOf = new Map(schedules.map((s) => [s.filialId, s]));
  const stateOf = new Map(states.map((s) => [s.filialId, s]));
  return filiais.map((filial) => ({
    filial,
    hasCertificate: certified.has(filial.id),
    schedule: scheduleOf.get(filial.id) ?? null,
    state: stateOf.get(filial.id) ?? null,
  }));
}
