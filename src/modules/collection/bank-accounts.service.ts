import type { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, NotFoundError, StaleVersionError, ValidationError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { raiseSequenceTo } from '../../core/sequence/sequence.service';
import { Sequence } from '../../core/sequence/sequence.entity';
import { activePaymentMethod } from '../catalog';
import { assertFilialAccess } from '../tenancy';
import { accountProblems, BankCode, BANKS, CnabLayout, layoutMaxSequence, offersLayout } from './banks/banks';
import { BankAccount, nossoNumeroSequence, remittanceSequence } from './entities/bank-account.entity';
import { BANK_ACCOUNT_AUDIT, bankAccountData } from './collection.events';
import { accountsOf, updateAccountIf } from './collection.repository';

/*
 * Bank accounts of collection (SPEC §14): created per filial, validated by the bank's rules
 * (banks/banks.ts: agência and conta check digits, carteira, convênio, layout), edited with the
 * version, deactivated rather than deleted (their boletos keep pointing at them). The next nosso
 * número can only move forward: a number once handed out is never handed out again.
 */

export interface BankAccountInput {
  filialId: number;
  name: string;
  bankCode: BankCode;
  agency: string;
  agencyDigit?: string | null;
  account: string;
  accountDigit: string;
  carteira: string;
  beneficiaryCode?: string | null;
  carteiraVariation?: string | null;
  transmissionCode?: string | null;
  layout: CnabLayout;
  paymentMethodCode: string;
  finePercent?: Dec;
  interestPerDayPercent?: Dec;
  discountPercent?: Dec;
  discountDays?: number;
  instructions?: string[] | null;
  protestDays?: number | null;
  writeOffDays?: number | null;
  pixKey?: string | null;
  pspCode?: string | null;
  nextNossoNumero?: number;
}

export type BankAccountPatch = Partial<Omit<BankAccountInput, 'filialId'>> & { version: number; active?: boolean };

/** An account with where its counters stand. */
export interface BankAccountView {
  account: BankAccount;
  nextNossoNumero: number;
  nextRemittanceNumber: number;
}

/** The largest value core/sequence's int counter holds. */
const SEQUENCE_MAX = 2_147_483_647;
export const maxSequenceOf = (bankCode: BankCode, layout: CnabLayout) => Math.min(layoutMaxSequence(bankCode, layout), SEQUENCE_MAX);

const ZERO = new Dec(0);

async function counterValue(em: EntityManager, companyId: number, name: string): Promise<number> {
  const row = await em.findOneBy(Sequence, { companyId, name });
  return row ? row.value : 0;
}

export async function viewOf(em: EntityManager, account: BankAccount): Promise<BankAccountView> {
  const [nn, rem] = await Promise.all([
    counterValue(em, account.companyId, nossoNumeroSequence(account.id)),
    counterValue(em, account.companyId, remittanceSequence(account.id)),
  ]);
  return { account, nextNossoNumero: nn + 1, nextRemittanceNumber: rem + 1 };
}

function checkAccount(
  values: Pick<
    BankAccount,
    | 'bankCode'
    | 'agency'
    | 'agencyDigit'
    | 'account'
    | 'accountDigit'
    | 'carteira'
    | 'beneficiaryCode'
    | 'carteiraVariation'
    | 'transmissionCode'
    | 'layout'
  >,
) {
  const problems = accountProblems(values, values.layout);
  if (problems.length) throw new ValidationError('Invalid bank account', problems);
  if (!offersLayout(values.bankCode, values.layout)) {
    const rule = BANKS[values.bankCode];
    throw new BusinessRuleError(
      'LAYOUT_NOT_OFFERED',
      `${rule.name} collects by ${rule.layouts.join(' or ')} only; ${values.layout} is not offered for this bank`,
      {
        bankCode: values.bankCode,
        layout: values.layout,
        layouts: rule.layouts,
      },
    );
  }
}

function checkNext(bankCode: BankCode, layout: CnabLayout, next: number) {
  const max = maxSequenceOf(bankCode, layout);
  if (next > max)
    throw new ValidationError('Invalid bank account', [
      { path: 'nextNossoNumero', message: `${BANKS[bankCode].name} nosso número holds at most ${max}` },
    ]);
}

const instructionsText = (lines: string[] | null | undefined) => (lines?.length ? lines.map((l) => l.trim()).join('\n') : null);

/** An account of the caller's company (404 otherwise), of a filial the token grants (403). */
export async function findAccessibleAccount(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx)): Promise<BankAccount> {
  const account = await em.findOneBy(BankAccount, { id, companyId: ctx.companyId });
  if (!account) throw new NotFoundError('Bank account');
  await assertFilialAccess(ctx, account.filialId, em);
  return account;
}

/** A bank account by id inside the company (no filial check): for other modules' use cases (Pix). */
export const findBankAccount = (em: EntityManager, companyId: number, id: number): Promise<BankAccount | null> =>
  em.findOneBy(BankAccount, { id, companyId });

export async function createBankAccount(ctx: TenantContext, input: BankAccountInput): Promise<BankAccountView> {
  const values = {
    bankCode: input.bankCode,
    agency: input.agency.padStart(4, '0'),
    agencyDigit: input.agencyDigit?.toUpperCase() || null,
    account: input.account,
    accountDigit: input.accountDigit.toUpperCase(),
    carteira: input.carteira.toUpperCase(),
    beneficiaryCode: input.beneficiaryCode || null,
    carteiraVariation: input.carteiraVariation || null,
    transmissionCode: input.transmissionCode || null,
    layout: input.layout,
  };
  checkAccount(values);
  const next = input.nextNossoNumero ?? 1;
  checkNext(input.bankCode, input.layout, next);
  return inTransaction(ctx, async (em) => {
    await assertFilialAccess(ctx, input.filialId, em);
    await activePaymentMethod(em, ctx.companyId, input.paymentMethodCode);
    const inserted = await em.insert(BankAccount, {
      companyId: ctx.companyId,
      filialId: input.filialId,
      name: input.name.trim(),
      ...values,
      account: values.account.padStart(BANKS[values.bankCode].accountLength, '0'),
      paymentMethodCode: input.paymentMethodCode,
      finePercent: input.finePercent ?? ZERO,
      interestPerDayPercent: input.interestPerDayPercent ?? ZERO,
      discountPercent: input.discountPercent ?? ZERO,
      discountDays: input.discountDays ?? 0,
      instructions: instructionsText(input.instructions),
      protestDays: input.protestDays ?? null,
      writeOffDays: input.writeOffDays ?? null,
      pixKey: input.pixKey?.trim() || null,
      pspCode: input.pspCode || null,
      active: true,
      version: 1,
    } as never);
    const id = Number(inserted.identifiers[0].id);
    if (next > 1) await raiseSequenceTo(em, ctx.companyId, nossoNumeroSequence(id), next - 1);
    const account = (await em.findOneBy(BankAccount, { id, companyId: ctx.companyId }))!;
    await recordAudit(em, ctx, {
      entity: BANK_ACCOUNT_AUDIT,
      entityId: id,
      action: 'CREATED',
      changes: diff({}, { ...bankAccountData(account), nextNossoNumero: next }),
    });
    await publishEvent(em, ctx, {
      type: 'collection.bank-account.created',
      filialId: account.filialId,
      aggregateType: BANK_ACCOUNT_AUDIT,
      aggregateId: id,
      data: bankAccountData(account),
    });
    return { account, nextNossoNumero: next, nextRemittanceNumber: 1 };
  });
}

export async function getBankAccount(ctx: TenantContext, id: number): Promise<BankAccountView> {
  const account = await findAccessibleAccount(ctx, id);
  return viewOf(readerOf(ctx), account);
}

export async function listBankAccounts(ctx: TenantContext, query: { filialId?: number; active?: boolean }): Promise<BankAccountView[]> {
  const em = readerOf(ctx);
  if (query.filialId) await assertFilialAccess(ctx, query.filialId);
  // A company holds a handful of collection accounts: one page of at most 200.
  const accounts = await accountsOf(em, ctx.companyId, {
    filialId: query.filialId,
    filialIn: ctx.grantedFiliais === '*' ? undefined : ctx.grantedFiliais,
    active: query.active,
  });
  return Promise.all(accounts.map((a) => viewOf(em, a)));
}

/**
 * Fields that identify where the account's titles are registered: fixed once a boleto exists. The
 * variação and the código de transmissão name the account in the bank's CNAB 400 files as the
 * convênio does: a retorno of the titles already registered would no longer match.
 */
const IDENTITY_FIELDS = [
  'bankCode',
  'agency',
  'agencyDigit',
  'account',
  'accountDigit',
  'carteira',
  'beneficiaryCode',
  'carteiraVariation',
  'transmissionCode',
  'layout',
] as const;

export async function updateBankAccount(
  ctx: TenantContext,
  id: number,
  patch: BankAccountPatch,
  hasTitles: (em: EntityManager, account: BankAccount) => Promise<boolean>,
): Promise<BankAccountView> {
  return inTransaction(ctx, async (em) => {
    const current = await findAccessibleAccount(ctx, id, em);
    if (current.version !== patch.version) throw new StaleVersionError('Bank account', current.version);
    const merged = {
      bankCode: patch.bankCode ?? current.bankCode,
      agency: patch.agency !== undefined ? patch.agency.padStart(4, '0') : current.agency,
      agencyDigit: patch.agencyDigit !== undefined ? patch.agencyDigit?.toUpperCase() || null : current.agencyDigit,
      account: patch.account ?? current.account,
      accountDigit: patch.accountDigit?.toUpperCase() ?? current.accountDigit,
      carteira: patch.carteira?.toUpperCase() ?? current.carteira,
      beneficiaryCode: patch.beneficiaryCode !== undefined ? patch.beneficiaryCode || null : current.beneficiaryCode,
      carteiraVariation: patch.carteiraVariation !== undefined ? patch.carteiraVariation || null : current.carteiraVariation,
      transmissionCode: patch.transmissionCode !== undefined ? patch.transmissionCode || null : current.transmissionCode,
      layout: patch.layout ?? current.layout,
    };
    // An account kept from before the variação existed (null) may be given one: its files said 000, which named no variação.
    const identityChanged = IDENTITY_FIELDS.some(
      (f) =>
        merged[f] !== current[f] &&
        !(f === 'account' && merged.account.padStart(BANKS[merged.bankCode].accountLength, '0') === current.account) &&
        !(f === 'carteiraVariation' && current.carteiraVariation === null),
    );
    // Checked whenever the variação is set, also when it alone changes (the bank's rules read it).
    if (!identityChanged && merged.carteiraVariation !== current.carteiraVariation) checkAccount(merged);
    if (identityChanged) {
      checkAccount(merged);
      if (await hasTitles(em, current)) {
        throw new BusinessRuleError(
          'BANK_ACCOUNT_IN_USE',
          'The account has boletos: its bank, agência, conta, carteira (and variação), convênio, código de transmissão and layout can no longer change (create another account)',
        );
      }
    }
    if (patch.paymentMethodCode) await activePaymentMethod(em, ctx.companyId, patch.paymentMethodCode);
    if (patch.nextNossoNumero !== undefined) {
      checkNext(merged.bankCode, merged.layout, patch.nextNossoNumero);
      const issued = await counterValue(em, ctx.companyId, nossoNumeroSequence(id));
      if (patch.nextNossoNumero <= issued) {
        throw new BusinessRuleError(
          'NOSSO_NUMERO_ALREADY_ISSUED',
          `Nosso número up to ${issued} was already handed out; the next one cannot go back`,
          { lastIssued: issued },
        );
      }
      await raiseSequenceTo(em, ctx.companyId, nossoNumeroSequence(id), patch.nextNossoNumero - 1);
    }
    const set: Partial<BankAccount> = {
      ...merged,
      account: merged.account.padStart(BANKS[merged.bankCode].accountLength, '0'),
      ...(patch.name !== undefined && { name: patch.name.trim() }),
      ...(patch.paymentMethodCode !== undefined && { paymentMethodCode: patch.paymentMethodCode }),
      ...(patch.finePercent !== undefined && { finePercent: patch.finePercent }),
      ...(patch.interestPerDayPercent !== undefined && { interestPerDayPercent: patch.interestPerDayPercent }),
      ...(patch.discountPercent !== undefined && { discountPercent: patch.discountPercent }),
      ...(patch.discountDays !== undefined && { discountDays: patch.discountDays }),
      ...(patch.instructions !== undefined && { instructions: instructionsText(patch.instructions) }),
      ...(patch.protestDays !== undefined && { protestDays: patch.protestDays }),
      ...(patch.writeOffDays !== undefined && { writeOffDays: patch.writeOffDays }),
      ...(patch.pixKey !== undefined && { pixKey: patch.pixKey?.trim() || null }),
      ...(patch.pspCode !== undefined && { pspCode: patch.pspCode || null }),
      ...(patch.active !== undefined && { active: patch.active }),
    };
    if (!(await updateAccountIf(em, ctx.companyId, id, patch.version, set as Partial<BankAccount>)))
      throw new StaleVersionError('Bank account', patch.version + 1);
    const account = (await em.findOneBy(BankAccount, { id, companyId: ctx.companyId }))!;
    const changes = diff(bankAccountData(current), bankAccountData(account));
    if (patch.nextNossoNumero !== undefined) changes.nextNossoNumero = [null, patch.nextNossoNumero];
    await recordAudit(em, ctx, { entity: BANK_ACCOUNT_AUDIT, entityId: id, action: 'UPDATED', changes });
    await publishEvent(em, ctx, {
      type: 'collection.bank-account.updated',
      filialId: account.filialId,
      aggregateType: BANK_ACCOUNT_AUDIT,
      aggregateId: id,
      data: bankAccountData(account),
    });
    return viewOf(em, account);
  });
}

/** Deletes an account that never had a boleto (409 BANK_ACCOUNT_IN_USE otherwise: deactivate it instead). */
export async function deleteBankAccount(
  ctx: TenantContext,
  id: number,
  hasTitles: (em: EntityManager, account: BankAccount) => Promise<boolean>,
): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const account = await findAccessibleAccount(ctx, id, em);
    if (await hasTitles(em, account))
      throw new BusinessRuleError(
        'BANK_ACCOUNT_IN_USE',
        'The account has boletos: deactivate it (PATCH active false) instead of deleting it',
      );
    await em.delete(BankAccount, { id, companyId: ctx.companyId });
    await recordAudit(em, ctx, {
      entity: BANK_ACCOUNT_AUDIT,
      entityId: id,
      action: 'DELETED',
      changes: diff(bankAccountData(account), {}),
    });
    await publishEvent(em, ctx, {
      type: 'collection.bank-account.deleted',
      filialId: account.filialId,
      aggregateType: BANK_ACCOUNT_AUDIT,
      aggregateId: id,
      data: bankAccountData(account),
    });
  });
}
