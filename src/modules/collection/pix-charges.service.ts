import crypto from 'node:crypto';
import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { addCalendarDays, businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, round, toFixed, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError, StateConflictError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { activePaymentMethod, Customer } from '../catalog';
import { canCollect, Receivable, receivableConflictCode } from '../receivables';
import { open as openSealed, seal } from '../sefaz';
import { assertFilialAccess, Filial } from '../tenancy';
import { findAccessibleAccount, findBankAccount } from './bank-accounts.service';
import type { BankAccount } from './entities/bank-account.entity';
import { PixCharge, PixChargeKind } from './entities/pix-charge.entity';
import type { PixPayment } from './entities/pix-payment.entity';
import type { PixPspConnection } from './entities/pix-psp-connection.entity';
import type { PixRefund } from './entities/pix-refund.entity';
import { dynamicBrCode, staticBrCode } from './pix-brcode';
import { CobRequest, CobvRequest, HttpPixPsp, PixPsp, PspCob, PspError } from './pix-psp';
import { chargeData, PIX_CHARGE_AUDIT, PIX_CONNECTION_AUDIT } from './pix.events';
import {
  chargesOfReceivable,
  findCharge,
  findConnection,
  insertCharge,
  insertConnection,
  paymentsOfCharges,
  refundsOfPayments,
  updateChargeIf,
  updateConnectionIf,
} from './pix.repository';
import { pixChargeMachine, statusOfPsp } from './pix.state';

/*
 * Pix charges of receivables (SPEC §14; docs/decisions/collection-pix.md): a static BR Code made
 * here, or a dynamic charge at the account's PSP (`cob`, or `cobv` with due date, fine, interest and
 * discount). A dynamic charge is written PENDING first, sent after that commits (never a PSP call
 * inside a transaction), and settled in a second transaction by the PSP's answer: ACTIVE with its
 * location and BR Code, or REFUSED with the PSP's reason. No answer leaves it PENDING; a re-read
 * (sync) settles it, since the PSP keys the charge by its txid.
 */

const TXID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random txid of `length` letters and digits (static: ≤ 25; cob/cobv: 26–35). */
export function newTxid(length: number): string {
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (const b of bytes) out += TXID_ALPHABET[b % TXID_ALPHABET.length];
  return out;
}

const sealBinding = (companyId: number, bankAccountId: number) => `pix-psp:${companyId}:${bankAccountId}`;
export const hashSecret = (secret: string) => crypto.createHash('sha256').update(secret, 'utf8').digest('hex');

/* ---------------------------------------------------------------- PSP connection */

export interface PspConnectionInput {
  baseUrl: string;
  tokenUrl?: string | null;
  clientId: string;
  /** Required the first time; omitted keeps the stored one. */
  clientSecret?: string;
  /** Required the first time; omitted keeps the stored one. */
  webhookSecret?: string;
  /** The service's public base URL as the PSP reaches it (…/api): the webhook registered is `<it>/webhooks/pix/<bankAccountId>`. */
  webhookBaseUrl?: string | null;
  paymentMethod?: string;
}

const psps = new Map<string, PixPsp>();

/** The adapter of an account's connection (kept per connection version, so its OAuth token is reused). */
export function pspOf(connection: PixPspConnection): PixPsp {
  const key = `${connection.companyId}:${connection.id}:${connection.version}`;
  let psp = psps.get(key);
  if (!psp) {
    const clientSecret = openSealed(
      Buffer.from(connection.clientSecretSealed, 'base64'),
      sealBinding(connection.companyId, connection.bankAccountId),
    ).toString('utf8');
    psp = new HttpPixPsp({ baseUrl: connection.baseUrl, tokenUrl: connection.tokenUrl, clientId: connection.clientId, clientSecret });
    psps.set(key, psp);
  }
  return psp;
}

export async function getConnection(
  ctx: TenantContext,
  bankAccountId: number,
): Promise<{ account: BankAccount; connection: PixPspConnection }> {
  const account = await findAccessibleAccount(ctx, bankAccountId);
  const connection = await findConnection(readerOf(ctx), ctx.companyId, bankAccountId);
  if (!connection) throw new NotFoundError('Pix PSP connection', 'PIX_PSP_NOT_CONFIGURED');
  return { account, connection };
}

export async function putConnection(
  ctx: TenantContext,
  bankAccountId: number,
  input: PspConnectionInput,
): Promise<{ account: BankAccount; connection: PixPspConnection; created: boolean }> {
  const account = await findAccessibleAccount(ctx, bankAccountId);
  if (!account.pixKey) throw new BusinessRuleError('PIX_KEY_REQUIRED', 'The bank account has no Pix key');
  const webhookUrl = input.webhookBaseUrl
    ? `${input.webhookBaseUrl.replace(/\/+$/, '')}/webhooks/pix/${encodeId('bank-account', bankAccountId)}`
    : null;
  const { connection, created } = await inTransaction(ctx, async (em) => {
    const method = await activePaymentMethod(em, ctx.companyId, input.paymentMethod ?? 'PIX');
    const current = await findConnection(em, ctx.companyId, bankAccountId);
    if (!current && (!input.clientSecret || !input.webhookSecret)) {
      const missing = ['clientSecret', 'webhookSecret'].filter((k) => !input[k as 'clientSecret']);
      throw new ValidationError(
        'A new PSP connection needs its client secret and webhook secret',
        missing.map((path) => ({ path, message: `${path} is required` })),
      );
    }
    const values = {
      baseUrl: input.baseUrl,
      tokenUrl: input.tokenUrl ?? null,
      clientId: input.clientId,
      paymentMethodCode: method.code,
      webhookUrl: webhookUrl ?? current?.webhookUrl ?? null,
      ...(input.clientSecret
        ? {
            clientSecretSealed: seal(Buffer.from(input.clientSecret, 'utf8'), sealBinding(ctx.companyId, bankAccountId)).toString('base64'),
          }
        : {}),
      ...(input.webhookSecret ? { webhookSecretHash: hashSecret(input.webhookSecret) } : {}),
      ...(webhookUrl && webhookUrl !== current?.webhookUrl ? { webhookRegisteredAt: null } : {}),
    };
    const audited = {
      baseUrl: values.baseUrl,
      tokenUrl: values.tokenUrl,
      clientId: values.clientId,
      paymentMethodCode: values.paymentMethodCode,
      webhookUrl: values.webhookUrl,
    };
    let id: number;
    if (!current) {
      id = await insertConnection(em, {
        companyId: ctx.companyId,
        filialId: account.filialId,
        bankAccountId,
        version: 1,
        ...(values as Required<typeof values>),
        webhookRegisteredAt: null,
      });
      await recordAudit(em, ctx, {
        entity: PIX_CONNECTION_AUDIT,
        entityId: id,
        action: 'CREATED',
        changes: { ...diff({}, audited), clientSecret: [null, 'set'], webhookSecret: [null, 'set'] },
      });
    } else {
      id = current.id;
      if (!(await updateConnectionIf(em, ctx.companyId, id, current.version, values)))
        throw new ConflictError('CONCURRENT_UPDATE', 'The PSP connection changed meanwhile; retry', { retryable: true });
      const changes = diff(current as unknown as Record<string, unknown>, audited);
      if (input.clientSecret) changes.clientSecret = ['set', 'replaced'];
      if (input.webhookSecret) changes.webhookSecret = ['set', 'replaced'];
      await recordAudit(em, ctx, { entity: PIX_CONNECTION_AUDIT, entityId: id, action: 'UPDATED', changes });
    }
    await publishEvent(em, ctx, {
      type: 'collection.pix.connection-updated',
      filialId: account.filialId,
      aggregateType: 'bank-account',
      aggregateId: bankAccountId,
      data: { bankAccountId: encodeId('bank-account', bankAccountId), baseUrl: values.baseUrl, webhookUrl: values.webhookUrl },
    });
    return { connection: (await findConnection(em, ctx.companyId, bankAccountId))!, created: !current };
  });
  if (!webhookUrl || connection.webhookRegisteredAt) return { account, connection, created };
  // The webhook is registered at the PSP after the commit; a failure answers the PSP's error and a new PUT tries again.
  await pspOf(connection).registerWebhook(account.pixKey, webhookUrl);
  const registered = await inTransaction(ctx, async (em) => {
    const now = await findConnection(em, ctx.companyId, bankAccountId);
    if (now && now.webhookUrl === webhookUrl)
      await updateConnectionIf(em, ctx.companyId, now.id, now.version, { webhookRegisteredAt: new Date() });
    return (await findConnection(em, ctx.companyId, bankAccountId))!;
  });
  return { account, connection: registered, created };
}

/* ---------------------------------------------------------------- charges */

export interface ChargeInput {
  kind: PixChargeKind;
  bankAccountId: number;
  /** Default: what is open on the receivable. */
  amount?: Dec | null;
  /** cob: seconds it stays payable (default 86400). */
  expiresInSeconds?: number | null;
  /** cobv: default the receivable's due date. */
  dueDate?: string | null;
  /** cobv: days after the due date it is still accepted (default 30). */
  daysAfterDue?: number | null;
  /** cobv: default the account's. */
  finePercent?: Dec | null;
  interestPerDayPercent?: Dec | null;
  discountAmount?: Dec | null;
  discountDate?: string | null;
  /** Shown to the payer (solicitacaoPagador / 26.02). */
  description?: string | null;
}

export interface ChargeDetail {
  charge: PixCharge;
  payments: PixPayment[];
  refunds: PixRefund[];
}

const money = (d: Dec) => toJsonNumber(d, 'amount');
const perc = (d: Dec) => round(d, 2).toFixed(2);

/** A receivable of the caller's company (404) in a filial the token grants (403). */
export async function accessibleReceivable(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx)): Promise<Receivable> {
  const r = await em.findOneBy(Receivable, { id, companyId: ctx.companyId });
  if (!r) throw new NotFoundError('Receivable');
  await assertFilialAccess(ctx, r.filialId, em);
  return r;
}

export const openOf = (r: Receivable) => r.amount.minus(r.receivedAmount).minus(r.creditedAmount);

function assertReceivable(r: Receivable) {
  if (!canCollect(r)) throw new StateConflictError('Receivable', r.status, 'charge it by Pix', receivableConflictCode(r.status));
}

async function merchantOf(em: EntityManager, companyId: number, filialId: number) {
  const f = await em.findOneBy(Filial, { id: filialId, companyId });
  return { merchantName: f?.tradeName || f?.name || '', merchantCity: f?.municipalityName ?? '', postalCode: f?.postalCode ?? null };
}

export async function createCharge(ctx: TenantContext, receivableId: number, input: ChargeInput): Promise<ChargeDetail> {
  const reader = readerOf(ctx);
  const receivable = await accessibleReceivable(ctx, receivableId);
  assertReceivable(receivable);
  const open = openOf(receivable);
  const amount = input.amount ?? open;
  if (amount.gt(open)) {
    throw new BusinessRuleError(
      'PIX_AMOUNT_EXCEEDS_BALANCE',
      `The charge of ${toFixed(amount, 'amount')} exceeds the open balance of ${toFixed(open, 'amount')}`,
      {
        openAmount: money(open),
        amount: money(amount),
      },
    );
  }
  const account = await chargingAccount(reader, ctx, input, receivable);
  const merchant = await merchantOf(reader, ctx.companyId, receivable.filialId);
  const base = {
    companyId: ctx.companyId,
    filialId: receivable.filialId,
    receivableId,
    bankAccountId: account.id,
    kind: input.kind,
    pixKey: account.pixKey,
    amount,
    location: null,
    refusalReason: null,
    createdBy: ctx.actor,
    version: 1,
  };
  const draft: ChargeDraft = {
    ctx,
    reader,
    receivable,
    input,
    account,
    amount,
    description: input.description?.trim() || null,
    merchant,
    base,
  };
  if (input.kind === 'STATIC') return createStaticCharge(draft);
  return createDynamicCharge(draft);
}

type ChargingAccount = NonNullable<Awaited<ReturnType<typeof findBankAccount>>> & { pixKey: string };
type ChargeBase = Omit<
  Parameters<typeof insertCharge>[1],
  'txid' | 'status' | 'brCode' | 'dueDate' | 'validity' | 'finePercent' | 'interestPerDayPercent' | 'discountAmount' | 'discountDate'
>;
type ChargeTerms = Pick<PixCharge, 'dueDate' | 'validity' | 'finePercent' | 'interestPerDayPercent' | 'discountAmount' | 'discountDate'>;
type PspRequest = { kind: 'cob'; body: CobRequest } | { kind: 'cobv'; body: CobvRequest };

/** A charge as asked, before it is written: the receivable, the account it is paid into, the amount. */
interface ChargeDraft {
  ctx: TenantContext;
  reader: EntityManager;
  receivable: Receivable;
  input: ChargeInput;
  account: ChargingAccount;
  amount: Dec;
  description: string | null;
  merchant: Awaited<ReturnType<typeof merchantOf>>;
  base: ChargeBase;
}

/** The receivable's filial's active account with a Pix key. */
async function chargingAccount(
  reader: EntityManager,
  ctx: TenantContext,
  input: ChargeInput,
  receivable: Receivable,
): Promise<ChargingAccount> {
  const account = await findBankAccount(reader, ctx.companyId, input.bankAccountId);
  if (!account) throw new NotFoundError('Bank account');
  if (account.filialId !== receivable.filialId)
    throw new BusinessRuleError('BANK_ACCOUNT_OTHER_FILIAL', "The bank account belongs to another filial than the receivable's");
  if (!account.active) throw new BusinessRuleError('BANK_ACCOUNT_INACTIVE', 'The bank account is inactive');
  if (!account.pixKey) throw new BusinessRuleError('PIX_KEY_REQUIRED', 'The bank account has no Pix key');
  return account as ChargingAccount;
}

/** A static BR Code: written ACTIVE at once, no PSP involved. */
async function createStaticCharge({ ctx, account, merchant, amount, description, base }: ChargeDraft): Promise<ChargeDetail> {
  const txid = newTxid(25);
  const brCode = staticBrCode({ key: account.pixKey, ...merchant, amount, txid, description });
  const id = await inTransaction(ctx, async (em) => {
    const id = await insertCharge(em, {
      ...base,
      txid,
      status: 'ACTIVE',
      dueDate: null,
      validity: 0,
      finePercent: new Dec(0),
      interestPerDayPercent: new Dec(0),
      discountAmount: new Dec(0),
      discountDate: null,
      brCode,
    });
    await chargeCreated(em, ctx, (await findCharge(em, ctx.companyId, id))!);
    return id;
  });
  return chargeDetail(ctx, id);
}

/** A cob or cobv: written PENDING, then asked of the PSP (outside the transaction), its answer settled. */
async function createDynamicCharge(draft: ChargeDraft): Promise<ChargeDetail> {
  const { ctx, reader, account, base, merchant } = draft;
  const connection = await findConnection(reader, ctx.companyId, account.id);
  if (!connection) throw new BusinessRuleError('PIX_PSP_NOT_CONFIGURED', 'The bank account has no PSP connection for dynamic Pix');
  const txid = newTxid(32);
  const { request, terms } = draft.input.kind === 'IMMEDIATE' ? await immediateRequest(draft) : await dueDateRequest(draft);
  const id = await inTransaction(ctx, async (em) => {
    const id = await insertCharge(em, { ...base, txid, status: 'PENDING', brCode: null, ...terms });
    const charge = (await findCharge(em, ctx.companyId, id))!;
    await recordAudit(em, ctx, { entity: PIX_CHARGE_AUDIT, entityId: id, action: 'CREATED', changes: diff({}, { ...chargeData(charge) }) });
    return id;
  });
  const psp = pspOf(connection);
  let answer: PspCob;
  try {
    answer =
      request.kind === 'cob' ? await psp.createCharge('cob', txid, request.body) : await psp.createCharge('cobv', txid, request.body);
  } catch (err) {
    if (err instanceof PspError && err.code === 'PSP_REJECTED') await refuseCharge(ctx, id, err.message);
    throw err;
  }
  await settleChargeAnswer(ctx, id, answer, merchant);
  return chargeDetail(ctx, id);
}

/** An immediate charge (cob): its expiry, the debtor when the customer has a CPF or CNPJ. */
async function immediateRequest({
  ctx,
  reader,
  receivable,
  input,
  account,
  amount,
  description,
}: ChargeDraft): Promise<{ request: PspRequest; terms: ChargeTerms }> {
  const terms: ChargeTerms = {
    dueDate: null,
    validity: input.expiresInSeconds ?? 86_400,
    finePercent: new Dec(0),
    interestPerDayPercent: new Dec(0),
    discountAmount: new Dec(0),
    discountDate: null,
  };
  const customer = receivable.customerId ? await reader.findOneBy(Customer, { id: receivable.customerId, companyId: ctx.companyId }) : null;
  const document = customer?.document?.replace(/\D/g, '') ?? '';
  const request: PspRequest = {
    kind: 'cob',
    body: {
      calendario: { expiracao: terms.validity },
      ...(document.length === 11 || document.length === 14
        ? { devedor: { [document.length === 11 ? 'cpf' : 'cnpj']: document, nome: customer!.name.slice(0, 200) } }
        : {}),
      valor: { original: amount.toFixed(2), modalidadeAlteracao: 0 },
      chave: account.pixKey,
      ...(description ? { solicitacaoPagador: description.slice(0, 140) } : {}),
    },
  };
  return { request, terms };
}

/** A charge with a due date (cobv): the debtor named, fine, interest and discount from the request or the account. */
async function dueDateRequest({
  ctx,
  reader,
  receivable,
  input,
  account,
  amount,
  description,
}: ChargeDraft): Promise<{ request: PspRequest; terms: ChargeTerms }> {
  const today = businessToday();
  const dueDate = input.dueDate ?? receivable.dueDate;
  if (dueDate < today)
    throw new BusinessRuleError('PIX_DUE_DATE_PAST', `A charge with a due date needs one from today on (${dueDate} is past)`, { dueDate });
  const customer = receivable.customerId ? await reader.findOneBy(Customer, { id: receivable.customerId, companyId: ctx.companyId }) : null;
  const document = customer?.document?.replace(/\D/g, '') ?? '';
  if (!customer || (document.length !== 11 && document.length !== 14)) {
    throw new BusinessRuleError(
      'PIX_DEBTOR_DOCUMENT_REQUIRED',
      "A charge with a due date (cobv) names its debtor: the receivable's customer needs a CPF or CNPJ",
    );
  }
  const finePercent = input.finePercent ?? account.finePercent;
  const interestPerDayPercent = input.interestPerDayPercent ?? account.interestPerDayPercent;
  const accountDiscount = account.discountPercent.gt(0) ? round(amount.times(account.discountPercent).div(100), 'amount') : new Dec(0);
  const discountAmount = input.discountAmount ?? accountDiscount;
  const discountDate = discountAmount.gt(0) ? (input.discountDate ?? addCalendarDays(dueDate, -(account.discountDays ?? 0))) : null;
  if (discountAmount.gte(amount)) throw new BusinessRuleError('PIX_DISCOUNT_TOO_LARGE', 'The discount must be less than the amount');
  if (discountDate && discountDate > dueDate)
    throw new BusinessRuleError('PIX_DISCOUNT_AFTER_DUE_DATE', 'The discount date must not be after the due date');
  const terms: ChargeTerms = {
    dueDate,
    validity: input.daysAfterDue ?? 30,
    finePercent,
    interestPerDayPercent,
    discountAmount,
    discountDate,
  };
  // Interest travels as percent a month (modalidade 3, calendar days): the API carries two decimals, too few for a rate per day.
  const monthly = interestPerDayPercent.times(30);
  const request: PspRequest = {
    kind: 'cobv',
    body: {
      calendario: { dataDeVencimento: dueDate, validadeAposVencimento: terms.validity },
      devedor: { [document.length === 11 ? 'cpf' : 'cnpj']: document, nome: customer.name.slice(0, 200) },
      valor: {
        original: amount.toFixed(2),
        ...(finePercent.gt(0) ? { multa: { modalidade: 2, valorPerc: perc(finePercent) } } : {}),
        ...(monthly.gt(0) ? { juros: { modalidade: 3, valorPerc: perc(monthly) } } : {}),
        ...(discountAmount.gt(0)
          ? { desconto: { modalidade: 1, descontoDataFixa: [{ data: discountDate!, valorPerc: discountAmount.toFixed(2) }] } }
          : {}),
      },
      chave: account.pixKey,
      ...(description ? { solicitacaoPagador: description.slice(0, 140) } : {}),
    },
  };
  return { request, terms };
}

async function chargeCreated(em: EntityManager, ctx: TenantContext, charge: PixCharge) {
  await recordAudit(em, ctx, {
    entity: PIX_CHARGE_AUDIT,
    entityId: charge.id,
    action: charge.kind === 'STATIC' ? 'CREATED' : 'CONFIRMED',
    changes: diff({}, { ...chargeData(charge), location: charge.location }),
  });
  await publishEvent(em, ctx, {
    type: 'collection.pix.charge-created',
    filialId: charge.filialId,
    aggregateType: 'pix-charge',
    aggregateId: charge.id,
    data: { ...chargeData(charge), brCode: charge.brCode },
  });
}

async function refuseCharge(ctx: TenantContext, id: number, reason: string) {
  await inTransaction(ctx, async (em) => {
    const c = (await findCharge(em, ctx.companyId, id))!;
    if (!pixChargeMachine.canDo(c, 'refuse')) return;
    pixChargeMachine.assertTransition(c, 'refuse', 'REFUSED');
    if (!(await updateChargeIf(em, ctx.companyId, id, c, { status: 'REFUSED', refusalReason: reason.slice(0, 500) }))) return;
    await recordAudit(em, ctx, {
      entity: PIX_CHARGE_AUDIT,
      entityId: id,
      action: 'REFUSED',
      changes: { status: [c.status, 'REFUSED'], refusalReason: [null, reason.slice(0, 500)] },
    });
    await publishEvent(em, ctx, {
      type: 'collection.pix.charge-refused',
      filialId: c.filialId,
      aggregateType: 'pix-charge',
      aggregateId: id,
      data: { ...chargeData({ ...c, status: 'REFUSED' }), reason },
    });
  });
}

/** Writes what the PSP holds of a charge (its creation's answer or a re-read): status, location, BR Code. */
export async function settleChargeAnswer(
  ctx: TenantContext,
  id: number,
  answer: PspCob,
  merchant?: { merchantName: string; merchantCity: string; postalCode: string | null },
): Promise<void> {
  const m = merchant ?? (await merchantOf(readerOf(ctx), ctx.companyId, (await findCharge(readerOf(ctx), ctx.companyId, id))!.filialId));
  const location = answer.loc?.location ?? answer.location ?? null;
  const brCode = location ? dynamicBrCode({ location, ...m }) : null;
  await inTransaction(ctx, async (em) => {
    const c = (await findCharge(em, ctx.companyId, id))!;
    const to = statusOfPsp(answer.status);
    const action = c.status === 'PENDING' && to !== 'REMOVED' ? 'confirm' : 'sync';
    if (c.status === to && c.location === location) return;
    if (!pixChargeMachine.canDo(c, action)) return;
    pixChargeMachine.assertTransition(c, action, to);
    if (!(await updateChargeIf(em, ctx.companyId, id, c, { status: to, location, brCode: brCode ?? c.brCode }))) return;
    const after = (await findCharge(em, ctx.companyId, id))!;
    if (c.status === 'PENDING') await chargeCreated(em, ctx, after);
    else await recordAudit(em, ctx, { entity: PIX_CHARGE_AUDIT, entityId: id, action: 'SYNCED', changes: { status: [c.status, to] } });
  });
}

export async function chargeDetail(ctx: TenantContext, id: number): Promise<ChargeDetail> {
  const reader = readerOf(ctx);
  const charge = await findCharge(reader, ctx.companyId, id);
  if (!charge) throw new NotFoundError('Pix charge');
  await assertFilialAccess(ctx, charge.filialId, reader);
  const payments = await paymentsOfCharges(reader, ctx.companyId, [id]);
  return {
    charge,
    payments,
    refunds: await refundsOfPayments(
      reader,
      ctx.companyId,
      payments.map((p) => p.id),
    ),
  };
}

export async function chargesOf(ctx: TenantContext, receivableId: number): Promise<ChargeDetail[]> {
  const reader = readerOf(ctx);
  await accessibleReceivable(ctx, receivableId);
  const charges = await chargesOfReceivable(reader, ctx.companyId, receivableId);
  const payments = await paymentsOfCharges(
    reader,
    ctx.companyId,
    charges.map((c) => c.id),
  );
  const refunds = await refundsOfPayments(
    reader,
    ctx.companyId,
    payments.map((p) => p.id),
  );
  return charges.map((charge) => {
    const own = payments.filter((p) => p.chargeId === charge.id);
    return { charge, payments: own, refunds: refunds.filter((r) => own.some((p) => p.id === r.paymentId)) };
  });
}

/** The txid of a boleto's static Pix (bolePix): "BOL" + bank + nosso número — ≤ 25 alphanumerics, one per title. */
export const bolePixTxid = (bankCode: string, nossoNumero: string) =>
  `BOL${bankCode}${nossoNumero}`.replace(/[^A-Za-z0-9]/g, '').slice(0, 25);

/**
 * The static Pix printed on a boleto whose account has a Pix key (bolePix), made in the boleto's own
 * transaction: a charge ACTIVE for the boleto's value whose txid names the nosso número, so a Pix paid
 * from the QR is applied to the receivable once (by txid) like any other static charge.
 */
export async function createBolePixCharge(
  em: EntityManager,
  ctx: TenantContext,
  boleto: { filialId: number; receivableId: number; bankCode: string; nossoNumero: string; amount: Dec },
  account: BankAccount,
): Promise<PixCharge | null> {
  if (!account.pixKey) return null;
  const merchant = await merchantOf(em, ctx.companyId, boleto.filialId);
  const txid = bolePixTxid(boleto.bankCode, boleto.nossoNumero);
  const brCode = staticBrCode({ key: account.pixKey, ...merchant, amount: boleto.amount, txid });
  const id = await insertCharge(em, {
    companyId: ctx.companyId,
    filialId: boleto.filialId,
    receivableId: boleto.receivableId,
    bankAccountId: account.id,
    kind: 'STATIC',
    pixKey: account.pixKey,
    amount: boleto.amount,
    location: null,
    refusalReason: null,
    createdBy: ctx.actor,
    version: 1,
    txid,
    status: 'ACTIVE',
    dueDate: null,
    validity: 0,
    finePercent: new Dec(0),
    interestPerDayPercent: new Dec(0),
    discountAmount: new Dec(0),
    discountDate: null,
    brCode,
  });
  const charge = (await findCharge(em, ctx.companyId, id))!;
  await chargeCreated(em, ctx, charge);
  return charge;
}

/**
 * The Pix QR a boleto prints: the receivable's newest dynamic charge of the same account that the PSP
 * holds ACTIVE (its location), else the boleto's own static bolePix charge; none when the account has
 * no Pix key.
 */
export async function bolePixCode(
  em: EntityManager,
  companyId: number,
  boleto: { receivableId: number; bankAccountId: number; bankCode: string; nossoNumero: string },
): Promise<string | null> {
  const charges = await chargesOfReceivable(em, companyId, boleto.receivableId);
  const dynamic = charges
    .filter((c) => c.bankAccountId === boleto.bankAccountId && c.kind !== 'STATIC' && c.status === 'ACTIVE' && c.location && c.brCode)
    .pop();
  if (dynamic) return dynamic.brCode;
  const txid = bolePixTxid(boleto.bankCode, boleto.nossoNumero);
  const own = charges.find((c) => c.txid === txid && c.status === 'ACTIVE');
  return own?.brCode ?? null;
}
