import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction } from '../../core/db/transaction';
import { Dec, round } from '../../core/decimal';
import { ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { lockedReceivableBalance, recordReceipt } from '../receivables';
import { findAccessibleAccount } from './bank-accounts.service';
import { BANKS } from './banks/banks';
import { boletoCode } from './banks/barcode';
import { boletoMachine } from './boleto.state';
import { writeBoleto } from './boletos.service';
import { CnabParseError } from './cnab/record';
import type { RetornoOccurrence } from './cnab/cnab240';
import { cnabLayout } from './cnab/layouts';
import { BANK_RETURN_AUDIT, BOLETO_AUDIT, boletoData } from './collection.events';
import { collectionMetrics } from './collection.metrics';
import { BankAccount } from './entities/bank-account.entity';
import { BankReturn, BankReturnOccurrence, OccurrenceOutcome } from './entities/bank-return.entity';
import { Boleto } from './entities/boleto.entity';
import { lockAccount } from './collection.repository';

/*
 * Retorno files (SPEC §14). The whole file is read first; a file that does not parse answers a
 * problem naming each line and field, and nothing of it is applied. Then, under the account's lock,
 * each occurrence is keyed by bank + agência/conta + nosso número + occurrence code + occurrence date
 * + amount paid; the key is unique in the database, so an occurrence seen before (the same file
 * again, an overlapping file, two uploads at once) is reported DUPLICATE and applies nothing. What a
 * new occurrence does:
 *   02 entrada confirmada → REGISTERED · 03 entrada rejeitada → REFUSED with the bank's reasons
 *   06 liquidação → a receipt on the receivable (interest, fine, discount, bank fee, credit date),
 *      PAID or PARTIALLY_PAID; a payment the receivable cannot take (written off, already settled —
 *      e.g. paid by Pix too — or above what is open) and 17 (paid after write-off) flag the boleto
 *      for review and record no receipt
 *   09 baixa → WRITTEN_OFF · 14 vencimento alterado → new due date, barcode and linha
 *   19 protesto confirmado / 25 protestado → PROTESTED · anything else is recorded, IGNORED.
 */

export const OCCURRENCE_DESCRIPTION: Record<string, string> = {
  // A CNAB 400 bank code of the same digits as one acted on but another meaning (cnab/cnab400.ts).
  '00': 'ocorrência do banco sem equivalente',
  '02': 'entrada confirmada',
  '03': 'entrada rejeitada',
  '06': 'liquidação',
  '09': 'baixa',
  '14': 'vencimento alterado',
  '17': 'liquidação após baixa',
  '19': 'instrução de protesto confirmada',
  '25': 'protestado e baixado',
  '28': 'débito de tarifas',
};

export type ReportOutcome = OccurrenceOutcome | 'DUPLICATE';

export interface OccurrenceReport {
  line: number;
  nossoNumero: string;
  code: string;
  description: string;
  occurrenceDate: string | null;
  paidAmount: Dec;
  outcome: ReportOutcome;
  reason: string | null;
  boletoId: number | null;
  receiptId: number | null;
}

export interface ReturnReport {
  bankReturn: BankReturn;
  occurrences: OccurrenceReport[];
}

const cents = (d: Dec) => d.times(100).toFixed(0);
export const occurrenceKey = (
  bankCode: string,
  account: BankAccount,
  o: Pick<RetornoOccurrence, 'nossoNumero' | 'code' | 'occurrenceDate' | 'paidAmount'>,
) => [bankCode, account.agency, account.account, o.nossoNumero, o.code, o.occurrenceDate ?? '', cents(o.paidAmount)].join('|');

const withoutLeadingZeros = (code: string) => code.replace(/^0+(?=\d)/, '');

export async function processReturn(ctx: TenantContext, bankAccountId: number, content: string): Promise<ReturnReport> {
  const account = await findAccessibleAccount(ctx, bankAccountId);
  const parsed = parseReturnFile(account, content);
  assertFileOfAccount(account, parsed);

  const report = await inTransaction(ctx, async (em) => {
    await lockAccount(em, ctx.companyId, account.id);
    const keys = parsed.occurrences.map((o) => occurrenceKey(account.bankCode, account, o));
    const seen = new Set(
      (
        await em.find(BankReturnOccurrence, {
          where: { companyId: ctx.companyId, occurrenceKey: In([...new Set(keys)]) },
          select: { occurrenceKey: true },
        })
      ).map((r) => r.occurrenceKey),
    );
    const inserted = await em.insert(BankReturn, {
      companyId: ctx.companyId,
      bankAccountId: account.id,
      fileNumber: parsed.fileNumber,
      contentSha256: createHash('sha256').update(content).digest('hex'),
      occurrenceCount: parsed.occurrences.length,
      summary: {},
      createdBy: ctx.actor,
    } as never);
    const returnId = Number(inserted.identifiers[0].id);
    const boletos = new Map(
      (
        await em.find(Boleto, {
          where: {
            companyId: ctx.companyId,
            bankAccountId: account.id,
            nossoNumero: In([...new Set(parsed.occurrences.map((o) => o.nossoNumero))]),
          },
        })
      ).map((b) => [b.nossoNumero, b]),
    );
    const results = await applyOccurrences(em, ctx, { account, parsed, returnId, keys, seen, boletos });
    const summary: Record<string, number> = { APPLIED: 0, REFUSED: 0, FLAGGED: 0, UNKNOWN: 0, IGNORED: 0, DUPLICATE: 0 };
    for (const r of results) summary[r.outcome]++;
    await em.update(BankReturn, { id: returnId, companyId: ctx.companyId }, { summary });
    await recordAudit(em, ctx, {
      entity: BANK_RETURN_AUDIT,
      entityId: returnId,
      action: 'PROCESSED',
      changes: { fileNumber: [null, parsed.fileNumber], summary: [null, summary] },
    });
    await publishEvent(em, ctx, {
      type: 'collection.return.processed',
      filialId: account.filialId,
      aggregateType: BANK_RETURN_AUDIT,
      aggregateId: returnId,
      data: {
        id: encodeId('bank-return', returnId),
        bankAccountId: encodeId('bank-account', account.id),
        fileNumber: parsed.fileNumber,
        summary,
      },
    });
    return { bankReturn: (await em.findOneBy(BankReturn, { id: returnId, companyId: ctx.companyId }))!, occurrences: results };
  });
  for (const o of report.occurrences) collectionMetrics.occurrences.inc({ bank: account.bankCode, outcome: o.outcome });
  return report;
}

/**
 * A retorno as parsed. agência/conta null: the file does not name them (Caixa's header names agência + beneficiary code only;
 * a Bradesco retorno names them only in its details); `beneficiaryCode` is the bank's code of the beneficiary when the header carries one.
 */
interface ParsedReturn {
  bankCode: string;
  agency: string | null;
  account: string | null;
  beneficiaryCode?: string | null;
  transmissionCode?: string;
  fileNumber: number;
  occurrences: RetornoOccurrence[];
}

/** The file in the account's layout; a file that does not parse applies nothing (400 with its lines). */
function parseReturnFile(account: BankAccount, content: string): ParsedReturn {
  try {
    return cnabLayout(account.layout, account.bankCode).parseRetorno(content);
  } catch (err) {
    if (err instanceof CnabParseError) {
      throw new ValidationError(
        'The retorno file does not parse: nothing was applied',
        err.problems.slice(0, 50).map((p) => ({ path: `file line ${p.line}`, message: `${p.field}: ${p.message}` })),
      );
    }
    throw err;
  }
}

/** The file's bank, agência, conta (or código de transmissão) and beneficiary code are the account's. */
function assertFileOfAccount(account: BankAccount, parsed: ParsedReturn) {
  // A código de transmissão the bank assigned names the account by itself: its parts are not agência, código and conta.
  const assigned = account.transmissionCode !== null && parsed.transmissionCode !== undefined;
  const mismatch = [
    parsed.bankCode !== account.bankCode && `bank ${parsed.bankCode}, the account is ${account.bankCode}`,
    assigned &&
      parsed.transmissionCode !== account.transmissionCode &&
      `código de transmissão ${parsed.transmissionCode}, the account's is ${account.transmissionCode}`,
    !assigned &&
      parsed.agency !== null &&
      Number(parsed.agency) !== Number(account.agency) &&
      `agência ${parsed.agency}, the account's is ${account.agency}`,
    !assigned &&
      parsed.account !== null &&
      Number(parsed.account) !== Number(account.account) &&
      `conta ${parsed.account}, the account's is ${account.account}`,
    // Compared without leading zeros: fields are zero-filled to the layout's width (Bradesco's 20), the account keeps what was typed.
    !assigned &&
      parsed.beneficiaryCode &&
      withoutLeadingZeros(parsed.beneficiaryCode) !== withoutLeadingZeros(account.beneficiaryCode ?? '') &&
      `convênio / código do beneficiário / código da empresa ${parsed.beneficiaryCode}, the account's is ${account.beneficiaryCode ?? 'none'}`,
  ].filter(Boolean) as string[];
  if (mismatch.length)
    throw new ValidationError(
      'The retorno is of another account: nothing was applied',
      mismatch.map((m) => ({ path: 'file line 1', message: m })),
    );
}

/** Each occurrence once (a repeated one reported DUPLICATE), applied to its boleto and recorded. */
async function applyOccurrences(
  em: EntityManager,
  ctx: TenantContext,
  file: { account: BankAccount; parsed: ParsedReturn; returnId: number; keys: string[]; seen: Set<string>; boletos: Map<string, Boleto> },
): Promise<OccurrenceReport[]> {
  const { account, parsed, returnId, keys, seen, boletos } = file;
  const results: OccurrenceReport[] = [];
  for (const [i, o] of parsed.occurrences.entries()) {
    const base = {
      line: o.line,
      nossoNumero: o.nossoNumero,
      code: o.code,
      description: OCCURRENCE_DESCRIPTION[o.code] ?? 'outra ocorrência',
      occurrenceDate: o.occurrenceDate,
      paidAmount: o.paidAmount,
    };
    if (seen.has(keys[i])) {
      results.push({
        ...base,
        outcome: 'DUPLICATE',
        reason: 'this occurrence was already applied (an earlier or overlapping file)',
        boletoId: boletos.get(o.nossoNumero)?.id ?? null,
        receiptId: null,
      });
      continue;
    }
    seen.add(keys[i]);
    const boleto = boletos.get(o.nossoNumero);
    const outcome = boleto
      ? await applyOccurrence(em, ctx, account, boleto, o)
      : {
          outcome: 'UNKNOWN' as const,
          reason: `no boleto of this account has nosso número ${o.nossoNumero}`,
          receiptId: null,
          boleto: null,
        };
    if (outcome.boleto) boletos.set(o.nossoNumero, outcome.boleto);
    await em.insert(BankReturnOccurrence, {
      companyId: ctx.companyId,
      bankReturnId: returnId,
      bankAccountId: account.id,
      occurrenceKey: keys[i],
      nossoNumero: o.nossoNumero,
      occurrenceCode: o.code,
      occurrenceDate: o.occurrenceDate ?? '1900-01-01',
      paidAmount: o.paidAmount,
      boletoId: boleto?.id ?? null,
      receiptId: outcome.receiptId,
      outcome: outcome.outcome,
      reason: outcome.reason?.slice(0, 255) ?? null,
    } as never);
    results.push({ ...base, outcome: outcome.outcome, reason: outcome.reason, boletoId: boleto?.id ?? null, receiptId: outcome.receiptId });
  }
  return results;
}

interface Applied {
  outcome: OccurrenceOutcome;
  reason: string | null;
  receiptId: number | null;
  boleto: Boleto | null;
}

async function flag(em: EntityManager, ctx: TenantContext, boleto: Boleto, reason: string): Promise<Applied> {
  await em.update(Boleto, { id: boleto.id, companyId: boleto.companyId }, { reviewReason: reason.slice(0, 255) });
  const flagged = (await em.findOneBy(Boleto, { id: boleto.id, companyId: boleto.companyId }))!;
  await recordAudit(em, ctx, {
    entity: BOLETO_AUDIT,
    entityId: boleto.id,
    action: 'FLAGGED_FOR_REVIEW',
    changes: { reviewReason: [boleto.reviewReason, flagged.reviewReason] },
  });
  await publishEvent(em, ctx, {
    type: 'collection.boleto.flagged',
    filialId: boleto.filialId,
    aggregateType: BOLETO_AUDIT,
    aggregateId: boleto.id,
    data: boletoData(flagged),
  });
  return { outcome: 'FLAGGED', reason, receiptId: null, boleto: flagged };
}

async function move(
  em: EntityManager,
  ctx: TenantContext,
  boleto: Boleto,
  action: Parameters<typeof boletoMachine.canDo>[1],
  to: Boleto['status'],
  eventType: string,
  values: Partial<Boleto> = {},
): Promise<Applied> {
  if (!boletoMachine.canDo(boleto, action))
    return { outcome: 'IGNORED', reason: `the boleto is ${boleto.status}`, receiptId: null, boleto: null };
  const updated = await writeBoleto(em, boleto, action, to, values);
  await recordAudit(em, ctx, {
    entity: BOLETO_AUDIT,
    entityId: boleto.id,
    action: eventType.toUpperCase().replace(/-/g, '_'),
    changes: { status: [boleto.status, to], ...(values.refusalReason && { refusalReason: [null, values.refusalReason] }) },
  });
  await publishEvent(em, ctx, {
    type: `collection.boleto.${eventType}`,
    filialId: boleto.filialId,
    aggregateType: BOLETO_AUDIT,
    aggregateId: boleto.id,
    data: boletoData(updated),
  });
  return { outcome: to === 'REFUSED' ? 'REFUSED' : 'APPLIED', reason: values.refusalReason ?? null, receiptId: null, boleto: updated };
}

async function applyOccurrence(
  em: EntityManager,
  ctx: TenantContext,
  account: BankAccount,
  boleto: Boleto,
  o: RetornoOccurrence,
): Promise<Applied> {
  switch (o.code) {
    case '02':
      return move(em, ctx, boleto, 'register', 'REGISTERED', 'registered', { registeredAt: new Date() });
    case '03':
      return move(em, ctx, boleto, 'refuse', 'REFUSED', 'refused', {
        refusalReason: `rejeição ${o.reasons.length ? 'motivos ' + o.reasons.join(', ') : 'sem motivo informado'}`,
      });
    case '09':
    case '25':
      return move(em, ctx, boleto, 'write-off', 'WRITTEN_OFF', 'written-off');
    case '19':
      return move(em, ctx, boleto, 'protest', 'PROTESTED', 'protested');
    case '14': {
      if (!o.dueDate || !boletoMachine.canDo(boleto, 'instruct'))
        return { outcome: 'IGNORED', reason: `the boleto is ${boleto.status}`, receiptId: null, boleto: null };
      const rule = BANKS[account.bankCode];
      const code = boletoCode(
        account.bankCode,
        o.dueDate,
        boleto.amount,
        rule.campoLivre(account, { number: boleto.nossoNumero, dv: boleto.nossoNumeroDv, printed: boleto.nossoNumeroPrinted }),
      );
      return move(em, ctx, boleto, 'instruct', boleto.status, 'due-date-changed', {
        dueDate: o.dueDate,
        barcode: code.barcode,
        digitableLine: code.digitableLine,
      });
    }
    case '06':
    case '17':
      return applyPayment(em, ctx, account, boleto, o);
    default:
      return {
        outcome: 'IGNORED',
        reason: `occurrence ${o.code} (${OCCURRENCE_DESCRIPTION[o.code] ?? 'not acted on'}) recorded`,
        receiptId: null,
        boleto: null,
      };
  }
}

async function applyPayment(
  em: EntityManager,
  ctx: TenantContext,
  account: BankAccount,
  boleto: Boleto,
  o: RetornoOccurrence,
): Promise<Applied> {
  const money = (d: Dec) => `R$ ${d.toFixed(2)}`;
  if (!o.occurrenceDate) return flag(em, ctx, boleto, `liquidação of ${money(o.paidAmount)} without a payment date`);
  if (o.code === '17' || !boletoMachine.canDo(boleto, 'pay')) {
    return flag(
      em,
      ctx,
      boleto,
      `payment of ${money(o.paidAmount)} on ${o.occurrenceDate} while the boleto is ${boleto.status}: refund or receive it by hand`,
    );
  }
  // The bank reports juros + multa as one charge: the fine is the boleto's percent (once late), the rest interest.
  const late = boleto.dueDate < o.occurrenceDate;
  const fullFine = late ? round(boleto.amount.times(boleto.finePercent).div(100), 'amount') : new Dec(0);
  const fine = Dec.min(fullFine, o.charges);
  const interest = o.charges.minus(fine);
  const discount = o.discount.plus(o.rebate);
  const settled = o.paidAmount.minus(o.charges).plus(discount);
  const balance = (await lockedReceivableBalance(em, ctx.companyId, boleto.receivableId))!;
  if (settled.lte(0)) return flag(em, ctx, boleto, `liquidação of ${money(o.paidAmount)} settles nothing`);
  if (balance.receivable.status === 'RECEIVED' || balance.receivable.status === 'CANCELLED' || settled.gt(balance.open)) {
    return flag(
      em,
      ctx,
      boleto,
      `payment of ${money(o.paidAmount)} on ${o.occurrenceDate} exceeds what the receivable still owes (${money(balance.open)}): paid twice? refund or credit it`,
    );
  }
  const { receipt } = await recordReceipt(em, ctx, boleto.receivableId, {
    amount: settled,
    receiptDate: o.occurrenceDate,
    method: account.paymentMethodCode,
    interest,
    fine,
    discount,
    bankFee: o.bankFee,
    creditDate: o.creditDate,
    note: `Boleto ${boleto.nossoNumeroPrinted} (retorno CNAB)`,
  });
  const paid = boleto.paidAmount.plus(o.paidAmount);
  const settledTotal = paid.minus(o.charges).plus(discount);
  const to = settled.gte(balance.open) || settledTotal.gte(boleto.amount) ? 'PAID' : 'PARTIALLY_PAID';
  const moved = await move(em, ctx, boleto, 'pay', to, to === 'PAID' ? 'paid' : 'partially-paid', { paidAmount: paid });
  return { ...moved, outcome: 'APPLIED', receiptId: receipt.id };
}
