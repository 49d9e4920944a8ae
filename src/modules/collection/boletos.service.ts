import { type EntityManager, IsNull } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { addCalendarDays, businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, round } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { nextSequenceValue } from '../../core/sequence/sequence.service';
import { Customer } from '../catalog';
import { findAccessibleReceivable, lockedReceivableBalance, Receivable } from '../receivables';
import { assertFilialAccess, Filial } from '../tenancy';
import { findAccessibleAccount, maxSequenceOf } from './bank-accounts.service';
import { BANKS } from './banks/banks';
import { boletoCode } from './banks/barcode';
import { REMESSA_MOVEMENT } from './cnab/cnab240';
import { cnabLayout } from './cnab/layouts';
import { boletoMachine, STANDING_STATUSES } from './boleto.state';
import { renderBoletoPdf } from './boleto-pdf';
import { bolePixCode, createBolePixCharge } from './pix-charges.service';
import { collectionMetrics } from './collection.metrics';
import { dropPendingRegistration, lockedBoleto, standingBoletoOf, updateBoletoIf } from './collection.repository';
import { BOLETO_AUDIT, boletoData } from './collection.events';
import { BankAccount, nossoNumeroSequence } from './entities/bank-account.entity';
import { BoletoInstruction, InstructionKind } from './entities/boleto-instruction.entity';
import { Boleto, BoletoStatus } from './entities/boleto.entity';

/*
 * Boletos of receivables (SPEC §14): issued against a filial's bank account with the next nosso
 * número (core/sequence: never handed out twice, even when the issuing transaction rolls back), the
 * barcode and linha digitável computed once, the account's fine/interest/discount defaults, and a
 * REGISTER instruction that waits for the next remessa. Status moves come from the bank's returns
 * (returns.service.ts) and from instructions asked here.
 */

export interface IssueBoletoInput {
  bankAccountId: number;
  dueDate?: string;
}

export interface InstructionInput {
  kind: Exclude<InstructionKind, 'REGISTER'>;
  dueDate?: string;
  amount?: Dec;
}

/** A boleto with what its DTO and PDF show. */
export interface BoletoView {
  boleto: Boleto;
  account: BankAccount;
  pendingInstructions: BoletoInstruction[];
}

/** Moves a boleto's status (and other fields) conditionally on the status and version read under the lock. */
export async function writeBoleto(em: EntityManager, before: Boleto, action: Parameters<typeof boletoMachine.assertTransition>[1], to: BoletoStatus, values: Partial<Boleto> = {}): Promise<Boleto> {
  boletoMachine.assertTransition(before, action, to);
  if (!(await updateBoletoIf(em, before, { ...values, status: to }))) throw new ConflictError('CONCURRENT_UPDATE', 'The boleto changed meanwhile; retry', { retryable: true });
  return (await em.findOneBy(Boleto, { id: before.id, companyId: before.companyId }))!;
}

async function viewOf(em: EntityManager, boleto: Boleto): Promise<BoletoView> {
  const [account, pendingInstructions] = await Promise.all([
    em.findOneByOrFail(BankAccount, { id: boleto.bankAccountId, companyId: boleto.companyId }),
    em.find(BoletoInstruction, { where: { companyId: boleto.companyId, boletoId: boleto.id }, order: { id: 'ASC' } }).then((rows) => rows.filter((r) => r.remittanceId === null)),
  ]);
  return { boleto, account, pendingInstructions };
}

export async function issueBoleto(ctx: TenantContext, receivableId: number, input: IssueBoletoInput): Promise<BoletoView> {
  await findAccessibleReceivable(ctx, receivableId);
  const view = await inTransaction(ctx, async (em) => {
    const balance = (await lockedReceivableBalance(em, ctx.companyId, receivableId))!;
    const r = balance.receivable;
    if (r.status !== 'OPEN' && r.status !== 'PARTIALLY_RECEIVED') {
      throw new ConflictError(r.status === 'RECEIVED' ? 'RECEIVABLE_ALREADY_RECEIVED' : `RECEIVABLE_${r.status}`, `The receivable is ${r.status}: nothing to collect`, { currentStatus: r.status });
    }
    if (r.debtorType !== 'CUSTOMER' || !r.customerId) throw new BusinessRuleError('BOLETO_NOT_FOR_ACQUIRER', "A card acquirer's receivable is settled by the acquirer, not by boleto");
    const standing = await standingBoletoOf(em, ctx.companyId, r.id, STANDING_STATUSES);
    if (standing) throw new ConflictError('BOLETO_ALREADY_ISSUED', 'The receivable already has a standing boleto', { boletoStatus: standing.status });
    const account = await findAccessibleAccount(ctx, input.bankAccountId, em);
    if (!account.active) throw new BusinessRuleError('BANK_ACCOUNT_INACTIVE', 'The bank account is inactive');
    if (account.filialId !== r.filialId) throw new BusinessRuleError('BANK_ACCOUNT_OTHER_FILIAL', "The bank account collects for another filial than the receivable's");
    const dueDate = input.dueDate ?? r.dueDate;
    const today = businessToday();
    if (dueDate < today) throw new BusinessRuleError('BOLETO_DUE_DATE_PAST', `The due date ${dueDate} is before today; give a new dueDate`, { dueDate });
    const customer = await em.findOneBy(Customer, { id: r.customerId, companyId: ctx.companyId });
    if (!customer?.document) throw new BusinessRuleError('PAYER_DOCUMENT_MISSING', 'A registered boleto needs the payer’s CPF or CNPJ: complete the customer first');
    const rule = BANKS[account.bankCode];
    // Taken on the sequence (autocommitted on MySQL): a rollback leaves a gap, never a reused number.
    const sequence = await nextSequenceValue(em, ctx.companyId, nossoNumeroSequence(account.id));
    if (sequence > maxSequenceOf(account.bankCode, account.layout))
      throw new BusinessRuleError('NOSSO_NUMERO_EXHAUSTED', `The account's nosso número range is used up (${maxSequenceOf(account.bankCode, account.layout)})`);
    const nn = rule.nossoNumero(account, sequence);
    const amount = balance.open;
    const code = boletoCode(account.bankCode, dueDate, amount, rule.campoLivre(account, nn));
    const discount = account.discountPercent.gt(0) ? round(amount.times(account.discountPercent).div(100), 'amount') : new Dec(0);
    const inserted = await em.insert(Boleto, {
      companyId: ctx.companyId,
      filialId: r.filialId,
      bankAccountId: account.id,
      receivableId: r.id,
      bankCode: account.bankCode,
      sequence,
      nossoNumero: nn.number,
      nossoNumeroDv: nn.dv,
      nossoNumeroPrinted: nn.printed,
      documentNumber: `${r.salesOrderCode}/${r.installmentNumber}`.slice(0, 15),
      amount,
      issueDate: today,
      dueDate,
      barcode: code.barcode,
      digitableLine: code.digitableLine,
      finePercent: account.finePercent,
      interestPerDayPercent: account.interestPerDayPercent,
      discountAmount: discount,
      discountDate: discount.gt(0) ? addCalendarDays(dueDate, -account.discountDays) : null,
      protestDays: account.protestDays,
      writeOffDays: account.writeOffDays,
      status: 'PENDING_REGISTRATION',
      refusalReason: null,
      reviewReason: null,
      paidAmount: new Dec(0),
      registeredAt: null,
      createdBy: ctx.actor,
      version: 1,
    } as never);
    const id = Number(inserted.identifiers[0].id);
    await em.insert(BoletoInstruction, {
      companyId: ctx.companyId,
      bankAccountId: account.id,
      boletoId: id,
      kind: 'REGISTER',
      newDueDate: null,
      newAmount: null,
      remittanceId: null,
      createdBy: ctx.actor,
    } as never);
    const boleto = (await em.findOneBy(Boleto, { id, companyId: ctx.companyId }))!;
    // bolePix: the account's Pix key puts a static Pix of the same value on the boleto.
    await createBolePixCharge(em, ctx, boleto, account);
    await recordAudit(em, ctx, { entity: BOLETO_AUDIT, entityId: id, action: 'CREATED', changes: diff({}, boletoData(boleto)) });
    await publishEvent(em, ctx, { type: 'collection.boleto.issued', filialId: r.filialId, aggregateType: BOLETO_AUDIT, aggregateId: id, data: boletoData(boleto) });
    return viewOf(em, boleto);
  });
  collectionMetrics.boletos.inc({ bank: view.boleto.bankCode });
  return view;
}

async function accessibleBoleto(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx)): Promise<Boleto> {
  const boleto = await em.findOneBy(Boleto, { id, companyId: ctx.companyId });
  if (!boleto) throw new NotFoundError('Boleto');
  await assertFilialAccess(ctx, boleto.filialId, em);
  return boleto;
}

export async function getBoleto(ctx: TenantContext, id: number): Promise<BoletoView> {
  return viewOf(readerOf(ctx), await accessibleBoleto(ctx, id));
}

export async function boletosOfReceivable(ctx: TenantContext, receivableId: number): Promise<BoletoView[]> {
  await findAccessibleReceivable(ctx, receivableId);
  const em = readerOf(ctx);
  const rows = await em.find(Boleto, { where: { companyId: ctx.companyId, receivableId }, order: { id: 'DESC' } });
  return Promise.all(rows.map((b) => viewOf(em, b)));
}

/**
 * Asks the bank something about a registered title (change due date or value, write off, protest):
 * one pending instruction of a kind per boleto; the next remessa carries it.
 */
export async function instructBoleto(ctx: TenantContext, id: number, input: InstructionInput): Promise<BoletoView> {
  await accessibleBoleto(ctx, id);
  return inTransaction(ctx, async (em) => {
    const boleto = (await lockedBoleto(em, ctx.companyId, id))!;
    boletoMachine.assertAllowed(boleto, 'instruct');
    // A CNAB 400 layout without a command for this instruction (BB and Santander have none to change the value, Caixa SIGCB none to protest or change it later).
    const account = await em.findOneByOrFail(BankAccount, { id: boleto.bankAccountId, companyId: ctx.companyId });
    if (!cnabLayout(account.layout, account.bankCode).movements.includes(REMESSA_MOVEMENT[input.kind])) {
      throw new BusinessRuleError('INSTRUCTION_NOT_IN_LAYOUT', `${BANKS[account.bankCode].name} ${account.layout} has no command for ${input.kind}: ask the bank directly`, {
        layout: account.layout,
        kind: input.kind,
      });
    }
    if (input.kind === 'CHANGE_DUE_DATE' && (!input.dueDate || input.dueDate < businessToday())) {
      throw new BusinessRuleError('BOLETO_DUE_DATE_PAST', 'The new due date must be today or later', { dueDate: input.dueDate ?? null });
    }
    if (input.kind === 'CHANGE_AMOUNT') {
      const balance = (await lockedReceivableBalance(em, ctx.companyId, boleto.receivableId))!;
      if (!input.amount || input.amount.gt(balance.open))
        throw new BusinessRuleError('BOLETO_AMOUNT_ABOVE_BALANCE', 'The new value cannot exceed what the receivable still owes', { openAmount: balance.open.toNumber() });
    }
    const pending = await em.findOneBy(BoletoInstruction, { companyId: ctx.companyId, boletoId: id, kind: input.kind, remittanceId: IsNull() });
    if (pending) throw new ConflictError('INSTRUCTION_ALREADY_PENDING', `A ${input.kind} instruction already waits for the next remessa`);
    await em.insert(BoletoInstruction, {
      companyId: ctx.companyId,
      bankAccountId: boleto.bankAccountId,
      boletoId: id,
      kind: input.kind,
      newDueDate: input.kind === 'CHANGE_DUE_DATE' ? input.dueDate! : null,
      newAmount: input.kind === 'CHANGE_AMOUNT' ? input.amount! : null,
      remittanceId: null,
      createdBy: ctx.actor,
    } as never);
    await recordAudit(em, ctx, {
      entity: BOLETO_AUDIT,
      entityId: id,
      action: 'INSTRUCTION_REQUESTED',
      changes: { instruction: [null, input.kind], ...(input.dueDate && { dueDate: [boleto.dueDate, input.dueDate] }) },
    });
    await publishEvent(em, ctx, {
      type: 'collection.boleto.instruction-requested',
      filialId: boleto.filialId,
      aggregateType: BOLETO_AUDIT,
      aggregateId: id,
      data: { ...boletoData(boleto), instruction: input.kind },
    });
    return viewOf(em, boleto);
  });
}

/** Withdraws a boleto no remessa has carried yet (its REGISTER instruction still pending). */
export async function cancelBoleto(ctx: TenantContext, id: number): Promise<BoletoView> {
  await accessibleBoleto(ctx, id);
  return inTransaction(ctx, async (em) => {
    const boleto = (await lockedBoleto(em, ctx.companyId, id))!;
    boletoMachine.assertAllowed(boleto, 'cancel');
    if (!(await dropPendingRegistration(em, ctx.companyId, id)))
      throw new ConflictError('BOLETO_ALREADY_SENT', 'A remessa already carried the boleto to the bank: ask for a write-off once it is registered');
    const updated = await writeBoleto(em, boleto, 'cancel', 'CANCELLED');
    await recordAudit(em, ctx, { entity: BOLETO_AUDIT, entityId: id, action: 'CANCELLED', changes: { status: [boleto.status, 'CANCELLED'] } });
    await publishEvent(em, ctx, { type: 'collection.boleto.cancelled', filialId: boleto.filialId, aggregateType: BOLETO_AUDIT, aggregateId: id, data: boletoData(updated) });
    return viewOf(em, updated);
  });
}

/** The beneficiary (the filial) and payer (the customer) a boleto prints and a remessa sends. */
export async function partiesOf(em: EntityManager, boleto: Boleto): Promise<{ filial: Filial; customer: Customer }> {
  const r = await em.findOneByOrFail(Receivable, { id: boleto.receivableId, companyId: boleto.companyId });
  const [filial, customer] = await Promise.all([
    em.findOneByOrFail(Filial, { id: boleto.filialId, companyId: boleto.companyId }),
    em.findOneByOrFail(Customer, { id: r.customerId!, companyId: boleto.companyId }),
  ]);
  return { filial, customer };
}

/** The boleto's PDF (recibo do pagador + ficha de compensação), drawn from what was stored at issue. */
export async function boletoPdf(ctx: TenantContext, id: number): Promise<{ fileName: string; pdf: Buffer }> {
  const em = readerOf(ctx);
  const boleto = await accessibleBoleto(ctx, id, em);
  const [{ account }, { filial, customer }, pixCode] = await Promise.all([viewOf(em, boleto), partiesOf(em, boleto), bolePixCode(em, ctx.companyId, boleto)]);
  return { fileName: `boleto-${boleto.bankCode}-${boleto.nossoNumero}.pdf`, pdf: await renderBoletoPdf({ boleto, account, beneficiary: filial, payer: customer, pixCode }) };
}
