import { type EntityManager, IsNull } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { addCalendarDays, businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, round } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { nextSequenceValue, nextSequenceValues } from '../../core/sequence/sequence.service';
import { Customer } from '../catalog';
import {
  canCollect,
  customerReceivablesOfBillings,
  findAccessibleReceivable,
  lockedReceivableBalance,
  openCustomerReceivablesOfBilling,
  Receivable,
  receivableConflictCode,
} from '../receivables';
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
import {
  dropPendingRegistration,
  lockedBoleto,
  standingBoletoOf,
  standingBoletosOfReceivables,
  updateBoletoIf,
} from './collection.repository';
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
export async function writeBoleto(
  em: EntityManager,
  before: Boleto,
  action: Parameters<typeof boletoMachine.assertTransition>[1],
  to: BoletoStatus,
  values: Partial<Boleto> = {},
): Promise<Boleto> {
  boletoMachine.assertTransition(before, action, to);
  if (!(await updateBoletoIf(em, before, { ...values, status: to })))
    throw new ConflictError('CONCURRENT_UPDATE', 'The boleto changed meanwhile; retry', { retryable: true });
  return (await em.findOneBy(Boleto, { id: before.id, companyId: before.companyId }))!;
}

async function viewOf(em: EntityManager, boleto: Boleto): Promise<BoletoView> {
  const [account, pendingInstructions] = await Promise.all([
    em.findOneByOrFail(BankAccount, { id: boleto.bankAccountId, companyId: boleto.companyId }),
    em
      .find(BoletoInstruction, { where: { companyId: boleto.companyId, boletoId: boleto.id }, order: { id: 'ASC' } })
      .then((rows) => rows.filter((r) => r.remittanceId === null)),
  ]);
  return { boleto, account, pendingInstructions };
}

type OpenBalance = { receivable: Receivable; open: Dec };

/** The account checks of issuing: active, and collecting for the receivable's (or order's) filial. */
function assertAccountFor(account: BankAccount, filialId: number): void {
  if (!account.active) throw new BusinessRuleError('BANK_ACCOUNT_INACTIVE', 'The bank account is inactive');
  if (account.filialId !== filialId)
    throw new BusinessRuleError('BANK_ACCOUNT_OTHER_FILIAL', "The bank account collects for another filial than the receivable's");
}

/** A registered boleto needs the payer's CPF or CNPJ (422 PAYER_DOCUMENT_MISSING). */
async function assertPayerDocument(em: EntityManager, companyId: number, customerId: number): Promise<void> {
  const customer = await em.findOneBy(Customer, { id: customerId, companyId });
  if (!customer?.document)
    throw new BusinessRuleError('PAYER_DOCUMENT_MISSING', 'A registered boleto needs the payer’s CPF or CNPJ: complete the customer first');
}

/**
 * Writes one boleto of a locked receivable on a checked account with a nosso número already taken:
 * the row, its REGISTER instruction (for the next remessa), the bolePix charge, audit and event.
 */
async function writeNewBoleto(
  em: EntityManager,
  ctx: TenantContext,
  { receivable: r, open: amount }: OpenBalance,
  account: BankAccount,
  sequence: number,
  dueDate: string,
): Promise<BoletoView> {
  const rule = BANKS[account.bankCode];
  if (sequence > maxSequenceOf(account.bankCode, account.layout))
    throw new BusinessRuleError(
      'NOSSO_NUMERO_EXHAUSTED',
      `The account's nosso número range is used up (${maxSequenceOf(account.bankCode, account.layout)})`,
    );
  const nn = rule.nossoNumero(account, sequence);
  const code = boletoCode(account.bankCode, dueDate, amount, rule.campoLivre(account, nn));
  const discount = account.discountPercent.gt(0) ? round(amount.times(account.discountPercent).div(100), 'amount') : new Dec(0);
  const today = businessToday();
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
  await publishEvent(em, ctx, {
    type: 'collection.boleto.issued',
    filialId: r.filialId,
    aggregateType: BOLETO_AUDIT,
    aggregateId: id,
    data: boletoData(boleto),
  });
  return viewOf(em, boleto);
}

export async function issueBoleto(ctx: TenantContext, receivableId: number, input: IssueBoletoInput): Promise<BoletoView> {
  await findAccessibleReceivable(ctx, receivableId);
  const view = await inTransaction(ctx, async (em) => {
    const balance = (await lockedReceivableBalance(em, ctx.companyId, receivableId))!;
    const r = balance.receivable;
    if (!canCollect(r)) {
      throw new ConflictError(receivableConflictCode(r.status), `The receivable is ${r.status}: nothing to collect`, {
        currentStatus: r.status,
      });
    }
    if (r.debtorType !== 'CUSTOMER' || !r.customerId)
      throw new BusinessRuleError('BOLETO_NOT_FOR_ACQUIRER', "A card acquirer's receivable is settled by the acquirer, not by boleto");
    const standing = await standingBoletoOf(em, ctx.companyId, r.id, STANDING_STATUSES);
    if (standing)
      throw new ConflictError('BOLETO_ALREADY_ISSUED', 'The receivable already has a standing boleto', { boletoStatus: standing.status });
    const account = await findAccessibleAccount(ctx, input.bankAccountId, em);
    assertAccountFor(account, r.filialId);
    const dueDate = input.dueDate ?? r.dueDate;
    if (dueDate < businessToday())
      throw new BusinessRuleError('BOLETO_DUE_DATE_PAST', `The due date ${dueDate} is before today; give a new dueDate`, { dueDate });
    await assertPayerDocument(em, ctx.companyId, r.customerId);
    // Taken on the sequence (autocommitted on MySQL): a rollback leaves a gap, never a reused number.
    const sequence = await nextSequenceValue(em, ctx.companyId, nossoNumeroSequence(account.id));
    return writeNewBoleto(em, ctx, balance, account, sequence, dueDate);
  });
  collectionMetrics.boletos.inc({ bank: view.boleto.bankCode });
  return view;
}

/** What a sales order names for its boletos on billing (sales-order checks it at order time and at billing). */
export interface BoletoTerms {
  bankAccountId: number;
  /** The order's filial: the account must collect for it. */
  filialId: number;
  /** The order's customer, when known: the payer needs a CPF or CNPJ. */
  customerId: number | null;
}

/**
 * Checks a sales order's boleto account in the caller's unit: 404 BANK_ACCOUNT_NOT_FOUND (unknown,
 * another company's or a filial the user cannot reach), 422 BANK_ACCOUNT_INACTIVE,
 * BANK_ACCOUNT_OTHER_FILIAL, PAYER_DOCUMENT_MISSING (customer known and without CPF/CNPJ).
 */
export async function assertBoletoTerms(em: EntityManager, ctx: TenantContext, terms: BoletoTerms): Promise<BankAccount> {
  const account = await findAccessibleAccount(ctx, terms.bankAccountId, em);
  assertAccountFor(account, terms.filialId);
  if (terms.customerId !== null) await assertPayerDocument(em, ctx.companyId, terms.customerId);
  return account;
}

/**
 * Boleto on billing (issue 46): in the billing transaction `em`, one boleto per open customer
 * installment the fulfilment (or counter sale) `fulfillmentId` just billed, on the order's account,
 * due on the installment's due date. The nosso números are one block of the account's sequence taken
 * here (MySQL: autocommitted, so a rolled-back billing leaves a gap and no number is handed out twice;
 * SQLite: in the unit, rolled back with the boletos that carried them). Refused as a whole (422) when
 * the account or the payer no longer qualifies: the billing rolls back with it. Local only: the
 * registration goes by the next remessa.
 */
export async function issueBoletosOnBilling(
  em: EntityManager,
  ctx: TenantContext,
  input: { bankAccountId: number; fulfillmentId: number },
): Promise<BoletoView[]> {
  return issueForBalances(em, ctx, input.bankAccountId, await openCustomerReceivablesOfBilling(em, ctx.companyId, input.fulfillmentId));
}

/** One boleto per balance on the account, the nosso números one block of its sequence, due on each receivable's due date. */
async function issueForBalances(
  em: EntityManager,
  ctx: TenantContext,
  bankAccountId: number,
  balances: OpenBalance[],
): Promise<BoletoView[]> {
  if (!balances.length) return [];
  const customerIds = [...new Set(balances.map((b) => b.receivable.customerId))];
  if (customerIds.some((c) => c === null))
    throw new BusinessRuleError('PAYER_DOCUMENT_MISSING', 'A registered boleto needs a payer with CPF or CNPJ: the order has no customer');
  const account = await assertBoletoTerms(em, ctx, {
    bankAccountId,
    filialId: balances[0].receivable.filialId,
    customerId: customerIds[0]!,
  });
  const first = await nextSequenceValues(em, ctx.companyId, nossoNumeroSequence(account.id), balances.length);
  const views: BoletoView[] = [];
  for (const [i, balance] of balances.entries()) {
    // An installment due today at the latest (terms of 0 days) is still payable today; none is in the past.
    views.push(await writeNewBoleto(em, ctx, balance, account, first + i, balance.receivable.dueDate));
  }
  // Counted when issued; a billing rolled back afterwards leaves the count one title high (as a gap in the sequence).
  collectionMetrics.boletos.inc({ bank: account.bankCode }, views.length);
  return views;
}

/** What a billing's customer receivables were before an NF-e re-made or cancelled them (realignBoletosOfBilling). */
export type BillingSnapshot = Map<number, { amount: string; dueDate: string; status: string }>;

/** The billings' customer receivables as they stand now, in the caller's transaction. */
export async function billingSnapshot(em: EntityManager, companyId: number, fulfillmentIds: number[]): Promise<BillingSnapshot> {
  const rows = await customerReceivablesOfBillings(em, companyId, fulfillmentIds);
  return new Map(rows.map(({ receivable: r }) => [r.id, { amount: r.amount.toFixed(2), dueDate: r.dueDate, status: r.status }]));
}

/**
 * Boletos follow their receivables (docs/decisions/collection-boleto.md "Boleto on billing"): after
 * an NF-e re-made a billing's receivables to its amount due and installments, or cancelled them with
 * the document, in that same transaction. Only receivables that changed since `before` (or are new)
 * are looked at. A standing boleto of a changed receivable that no remessa carried yet is cancelled
 * (and, when the receivable is still collectable and the order names an account, issued again for the
 * new amount and due date); one already at the bank gets CHANGE_AMOUNT / CHANGE_DUE_DATE instructions,
 * or WRITE_OFF when its receivable was cancelled; one in a remessa the bank has not answered yet is
 * flagged for review (`reviewReason`). A new open installment gets its boleto when the
 * order names an account. Hand-issued boletos follow the same rules.
 */
export async function realignBoletosOfBilling(
  em: EntityManager,
  ctx: TenantContext,
  input: { fulfillmentIds: number[]; bankAccountId: number | null; before: BillingSnapshot },
): Promise<void> {
  const rows = await customerReceivablesOfBillings(em, ctx.companyId, input.fulfillmentIds);
  const changed = rows.filter(({ receivable: r }) => {
    const was = input.before.get(r.id);
    return !was || was.amount !== r.amount.toFixed(2) || was.dueDate !== r.dueDate || was.status !== r.status;
  });
  if (!changed.length) return;
  const standing = new Map(
    (
      await standingBoletosOfReceivables(
        em,
        ctx.companyId,
        changed.map((c) => c.receivable.id),
        STANDING_STATUSES,
      )
    ).map((b) => [b.receivableId, b]),
  );
  const today = businessToday();
  const toIssue: OpenBalance[] = [];
  for (const balance of changed) {
    const r = balance.receivable;
    const collectable = r.status === 'OPEN' || r.status === 'PARTIALLY_RECEIVED';
    const found = standing.get(r.id);
    const boleto = found ? (await lockedBoleto(em, ctx.companyId, found.id))! : null;
    if (boleto && !(collectable && boleto.amount.eq(balance.open) && boleto.dueDate === r.dueDate)) {
      if (boleto.status === 'PENDING_REGISTRATION' && (await withdrawUnsent(em, ctx, boleto))) {
        if (collectable && input.bankAccountId !== null && r.dueDate >= today) toIssue.push(balance);
      } else if (boletoMachine.canDo(boleto, 'instruct')) {
        // At the bank (or on its way in a remessa): the bank is asked to follow the receivable.
        const wanted: InstructionInput[] = !collectable
          ? r.status === 'CANCELLED'
            ? [{ kind: 'WRITE_OFF' }]
            : []
          : [
              ...(boleto.dueDate !== r.dueDate && r.dueDate >= today ? [{ kind: 'CHANGE_DUE_DATE' as const, dueDate: r.dueDate }] : []),
              ...(!boleto.amount.eq(balance.open) ? [{ kind: 'CHANGE_AMOUNT' as const, amount: balance.open }] : []),
            ];
        const account = await em.findOneByOrFail(BankAccount, { id: boleto.bankAccountId, companyId: ctx.companyId });
        for (const w of wanted.filter((x) => layoutCarries(account, x.kind)))
          if (!(await instructionPending(em, ctx.companyId, boleto.id, w.kind))) await queueInstruction(em, ctx, boleto, w);
        const notCarried = wanted.filter((x) => !layoutCarries(account, x.kind)).map((x) => x.kind);
        // What the account's layout has no command for is asked of the bank by a person (the next remessa must not fail on it).
        if (notCarried.length)
          await flagForReview(
            em,
            ctx,
            boleto,
            `Receivable changed (${balance.open.toFixed(2)} due ${r.dueDate}); ${account.layout} has no command for ${notCarried.join(', ')}: ask the bank`,
          );
      } else {
        // In a remessa the bank has not answered yet (or protested): nothing can be asked of it now; a person follows it up.
        await flagForReview(
          em,
          ctx,
          boleto,
          `Receivable changed after the boleto was sent (now ${r.status}, ${balance.open.toFixed(2)} due ${r.dueDate})`,
        );
      }
      continue;
    }
    if (!boleto && r.status === 'OPEN' && input.bankAccountId !== null && r.dueDate >= today) toIssue.push(balance);
  }
  if (!toIssue.length || !(await stillQualifies(em, ctx, input.bankAccountId!, toIssue))) return;
  await issueForBalances(em, ctx, input.bankAccountId!, toIssue);
}

/** Whether the account's CNAB layout has a command for the instruction (BB and Santander 400 none to change the value, Caixa SIGCB none to protest or change it later). */
const layoutCarries = (account: BankAccount, kind: InstructionKind): boolean =>
  cnabLayout(account.layout, account.bankCode).movements.includes(REMESSA_MOVEMENT[kind]);

/** Sets the boleto's reviewReason (a person follows it up), audited. */
async function flagForReview(em: EntityManager, ctx: TenantContext, boleto: Boleto, reason: string): Promise<void> {
  const reviewReason = reason.slice(0, 255);
  if (!(await updateBoletoIf(em, boleto, { reviewReason })))
    throw new ConflictError('CONCURRENT_UPDATE', 'The boleto changed meanwhile; retry', { retryable: true });
  await recordAudit(em, ctx, {
    entity: BOLETO_AUDIT,
    entityId: boleto.id,
    action: 'FLAGGED_FOR_REVIEW',
    changes: { reviewReason: [boleto.reviewReason, reviewReason] },
  });
}

/**
 * Whether the order's account (and payer) can still carry new boletos: an account deactivated since,
 * or a payer without CPF/CNPJ, must not block the NF-e that re-made the receivables — those are left
 * without a boleto, as an order without the field (one can be issued by hand once fixed).
 */
async function stillQualifies(em: EntityManager, ctx: TenantContext, bankAccountId: number, balances: OpenBalance[]): Promise<boolean> {
  const { filialId, customerId } = balances[0].receivable;
  if (customerId === null) return false;
  try {
    await assertBoletoTerms(em, ctx, { bankAccountId, filialId, customerId });
    return true;
  } catch (err) {
    if (err instanceof BusinessRuleError || err instanceof NotFoundError) return false;
    throw err;
  }
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

const instructionPending = (em: EntityManager, companyId: number, boletoId: number, kind: InstructionKind) =>
  em.existsBy(BoletoInstruction, { companyId, boletoId, kind, remittanceId: IsNull() });

/** Writes an instruction for the next remessa, its audit row and event (the caller checked the boleto and the values). */
async function queueInstruction(em: EntityManager, ctx: TenantContext, boleto: Boleto, input: InstructionInput): Promise<void> {
  await em.insert(BoletoInstruction, {
    companyId: ctx.companyId,
    bankAccountId: boleto.bankAccountId,
    boletoId: boleto.id,
    kind: input.kind,
    newDueDate: input.kind === 'CHANGE_DUE_DATE' ? input.dueDate! : null,
    newAmount: input.kind === 'CHANGE_AMOUNT' ? input.amount! : null,
    remittanceId: null,
    createdBy: ctx.actor,
  } as never);
  await recordAudit(em, ctx, {
    entity: BOLETO_AUDIT,
    entityId: boleto.id,
    action: 'INSTRUCTION_REQUESTED',
    changes: {
      instruction: [null, input.kind],
      ...(input.dueDate && { dueDate: [boleto.dueDate, input.dueDate] }),
      ...(input.amount && { amount: [boleto.amount.toFixed(2), input.amount.toFixed(2)] }),
    },
  });
  await publishEvent(em, ctx, {
    type: 'collection.boleto.instruction-requested',
    filialId: boleto.filialId,
    aggregateType: BOLETO_AUDIT,
    aggregateId: boleto.id,
    data: { ...boletoData(boleto), instruction: input.kind },
  });
}

/** Cancels a locked PENDING_REGISTRATION boleto whose REGISTER no remessa carried yet (audit, event); null when a remessa already carried it. */
async function withdrawUnsent(em: EntityManager, ctx: TenantContext, boleto: Boleto): Promise<Boleto | null> {
  if (!(await dropPendingRegistration(em, ctx.companyId, boleto.id))) return null;
  const updated = await writeBoleto(em, boleto, 'cancel', 'CANCELLED');
  await recordAudit(em, ctx, {
    entity: BOLETO_AUDIT,
    entityId: boleto.id,
    action: 'CANCELLED',
    changes: { status: [boleto.status, 'CANCELLED'] },
  });
  await publishEvent(em, ctx, {
    type: 'collection.boleto.cancelled',
    filialId: boleto.filialId,
    aggregateType: BOLETO_AUDIT,
    aggregateId: boleto.id,
    data: boletoData(updated),
  });
  return updated;
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
    const account = await em.findOneByOrFail(BankAccount, { id: boleto.bankAccountId, companyId: ctx.companyId });
    if (!layoutCarries(account, input.kind)) {
      throw new BusinessRuleError(
        'INSTRUCTION_NOT_IN_LAYOUT',
        `${BANKS[account.bankCode].name} ${account.layout} has no command for ${input.kind}: ask the bank directly`,
        {
          layout: account.layout,
          kind: input.kind,
        },
      );
    }
    if (input.kind === 'CHANGE_DUE_DATE' && (!input.dueDate || input.dueDate < businessToday())) {
      throw new BusinessRuleError('BOLETO_DUE_DATE_PAST', 'The new due date must be today or later', { dueDate: input.dueDate ?? null });
    }
    if (input.kind === 'CHANGE_AMOUNT') {
      const balance = (await lockedReceivableBalance(em, ctx.companyId, boleto.receivableId))!;
      if (!input.amount || input.amount.gt(balance.open))
        throw new BusinessRuleError('BOLETO_AMOUNT_ABOVE_BALANCE', 'The new value cannot exceed what the receivable still owes', {
          openAmount: balance.open.toNumber(),
        });
    }
    if (await instructionPending(em, ctx.companyId, id, input.kind))
      throw new ConflictError('INSTRUCTION_ALREADY_PENDING', `A ${input.kind} instruction already waits for the next remessa`);
    await queueInstruction(em, ctx, boleto, input);
    return viewOf(em, boleto);
  });
}

/** Withdraws a boleto no remessa has carried yet (its REGISTER instruction still pending). */
export async function cancelBoleto(ctx: TenantContext, id: number): Promise<BoletoView> {
  await accessibleBoleto(ctx, id);
  return inTransaction(ctx, async (em) => {
    const boleto = (await lockedBoleto(em, ctx.companyId, id))!;
    boletoMachine.assertAllowed(boleto, 'cancel');
    const updated = await withdrawUnsent(em, ctx, boleto);
    if (!updated)
      throw new ConflictError(
        'BOLETO_ALREADY_SENT',
        'A remessa already carried the boleto to the bank: ask for a write-off once it is registered',
      );
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
  const [{ account }, { filial, customer }, pixCode] = await Promise.all([
    viewOf(em, boleto),
    partiesOf(em, boleto),
    bolePixCode(em, ctx.companyId, boleto),
  ]);
  return {
    fileName: `boleto-${boleto.bankCode}-${boleto.nossoNumero}.pdf`,
    pdf: await renderBoletoPdf({ boleto, account, beneficiary: filial, payer: customer, pixCode }),
  };
}
