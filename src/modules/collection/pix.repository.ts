import { EntityManager, EntityTarget, In, ObjectLiteral } from 'typeorm';
import { updateIfCurrent } from '../../core/versioned-update';
import { PixCharge, PixChargeStatus } from './entities/pix-charge.entity';
import { PixPayment } from './entities/pix-payment.entity';
import { PixPspConnection } from './entities/pix-psp-connection.entity';
import { PixRefund, PixRefundStatus } from './entities/pix-refund.entity';

/* SQL of Pix collection (SPEC §14): every statement inside the company. Decimals are computed with Dec, never in SQL. */

type Row<E> = Omit<E, 'id' | 'createdAt' | 'updatedAt'>;

async function insertRow<E extends ObjectLiteral>(em: EntityManager, target: EntityTarget<E>, row: Row<E>): Promise<number> {
  const r = await em.insert(target, row as never);
  return r.identifiers[0].id as number;
}

export const findConnection = (em: EntityManager, companyId: number, bankAccountId: number) =>
  em.findOneBy(PixPspConnection, { companyId, bankAccountId });

export async function insertConnection(em: EntityManager, row: Row<PixPspConnection>): Promise<number> {
  return insertRow(em, PixPspConnection, row);
}

export async function updateConnectionIf(
  em: EntityManager,
  companyId: number,
  id: number,
  version: number,
  values: Partial<Row<PixPspConnection>>,
): Promise<boolean> {
  return updateIfCurrent(em, PixPspConnection, { companyId, id }, { version }, values, { touch: true });
}

export const findCharge = (em: EntityManager, companyId: number, id: number) => em.findOneBy(PixCharge, { companyId, id });
export const findChargeByTxid = (em: EntityManager, companyId: number, txid: string) => em.findOneBy(PixCharge, { companyId, txid });
export const chargesOfReceivable = (em: EntityManager, companyId: number, receivableId: number) =>
  em.find(PixCharge, { where: { companyId, receivableId }, order: { id: 'ASC' } });

export async function insertCharge(em: EntityManager, row: Row<PixCharge>): Promise<number> {
  return insertRow(em, PixCharge, row);
}

/** A status change on the status and version read: false when another writer moved it first. */
export async function updateChargeIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: PixChargeStatus; version: number },
  values: Partial<Row<PixCharge>>,
): Promise<boolean> {
  return updateIfCurrent(em, PixCharge, { companyId, id }, expected, values, { touch: true });
}

export const findPayment = (em: EntityManager, companyId: number, id: number) => em.findOneBy(PixPayment, { companyId, id });
export const findPaymentByE2e = (em: EntityManager, companyId: number, endToEndId: string) =>
  em.findOneBy(PixPayment, { companyId, endToEndId });

/** The payment row locked (MySQL) so its refunds settle one at a time. */
export async function lockPayment(em: EntityManager, companyId: number, id: number, lock: boolean): Promise<PixPayment | null> {
  const qb = em.createQueryBuilder(PixPayment, 'p').where('p.company_id = :companyId AND p.id = :id', { companyId, id });
  if (lock) qb.setLock('pessimistic_write');
  return qb.getOne();
}

export const paymentsOfCharges = (em: EntityManager, companyId: number, chargeIds: number[]) =>
  chargeIds.length ? em.find(PixPayment, { where: { companyId, chargeId: In(chargeIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);

export async function insertPayment(em: EntityManager, row: Row<PixPayment>): Promise<number> {
  return insertRow(em, PixPayment, row);
}

export async function updatePaymentIf(
  em: EntityManager,
  companyId: number,
  id: number,
  version: number,
  values: Partial<Row<PixPayment>>,
): Promise<boolean> {
  return updateIfCurrent(em, PixPayment, { companyId, id }, { version }, values, { touch: true });
}

export const refundsOfPayments = (em: EntityManager, companyId: number, paymentIds: number[]) =>
  paymentIds.length ? em.find(PixRefund, { where: { companyId, paymentId: In(paymentIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);
export const findRefund = (em: EntityManager, companyId: number, id: number) => em.findOneBy(PixRefund, { companyId, id });

export async function insertRefund(em: EntityManager, row: Row<PixRefund>): Promise<number> {
  return insertRow(em, PixRefund, row);
}

export async function updateRefundIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: PixRefundStatus; version: number },
  values: Partial<Row<PixRefund>>,
): Promise<boolean> {
  return updateIfCurrent(em, PixRefund, { companyId, id }, expected, values, { touch: true });
}
