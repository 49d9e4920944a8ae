import { In } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { round } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { nextSequenceValue } from '../../core/sequence/sequence.service';
import { Customer } from '../catalog';
import { Receivable } from '../receivables';
import { assertFilialAccess, Filial } from '../tenancy';
import { findAccessibleAccount } from './bank-accounts.service';
import { CnabAccount, REMESSA_MOVEMENT, RemessaTitle } from './cnab/cnab240';
import { cnabLayout } from './cnab/layouts';
import { REMITTANCE_AUDIT } from './collection.events';
import { BankAccount, remittanceSequence } from './entities/bank-account.entity';
import { Boleto } from './entities/boleto.entity';
import { Remittance } from './entities/remittance.entity';
import { collectionMetrics } from './collection.metrics';
import { claimInstructions, lockAccount, pendingInstructionsOf } from './collection.repository';

/*
 * Remessa files (SPEC §14): an account's pending instructions (register, change due date or value,
 * write off, protest) become one CNAB file with the account's next file number. The account row is
 * locked while the file is built and the instructions are claimed by a conditional UPDATE
 * (`remittance_id IS NULL`): two requests at once make two files with different instructions, never
 * the same instruction twice. The file is checked record by record before it is stored.
 */

/** At most this many instructions go in one file (the rest wait for the next). */
const MAX_INSTRUCTIONS = 2000;

export const cnabAccountOf = (account: BankAccount, filial: Filial): CnabAccount => ({
  bankCode: account.bankCode,
  agency: account.agency,
  agencyDigit: account.agencyDigit,
  account: account.account,
  accountDigit: account.accountDigit,
  beneficiaryCode: account.beneficiaryCode,
  carteiraVariation: account.carteiraVariation,
  transmissionCode: account.transmissionCode,
  companyName: filial.name,
  companyDocument: filial.cnpj,
  carteira: account.carteira,
});

export async function createRemittance(ctx: TenantContext, bankAccountId: number): Promise<Remittance> {
  await findAccessibleAccount(ctx, bankAccountId);
  const remittance = await inTransaction(ctx, async (em) => {
    await lockAccount(em, ctx.companyId, bankAccountId);
    const account = await em.findOneByOrFail(BankAccount, { id: bankAccountId, companyId: ctx.companyId });
    const pending = await pendingInstructionsOf(em, ctx.companyId, account.id, MAX_INSTRUCTIONS);
    if (!pending.length) throw new BusinessRuleError('NO_PENDING_INSTRUCTIONS', 'The account has no instruction waiting for a remessa');
    const boletos = new Map(
      (await em.find(Boleto, { where: { companyId: ctx.companyId, id: In([...new Set(pending.map((p) => p.boletoId))]) } })).map((b) => [
        b.id,
        b,
      ]),
    );
    const receivables = new Map(
      (
        await em.find(Receivable, {
          where: { companyId: ctx.companyId, id: In([...new Set([...boletos.values()].map((b) => b.receivableId))]) },
        })
      ).map((r) => [r.id, r]),
    );
    const customers = new Map(
      (
        await em.find(Customer, {
          where: { companyId: ctx.companyId, id: In([...new Set([...receivables.values()].map((r) => r.customerId!))]) },
        })
      ).map((c) => [c.id, c]),
    );
    const filial = await em.findOneByOrFail(Filial, { id: account.filialId, companyId: ctx.companyId });
    const titles: RemessaTitle[] = pending.map((p) => {
      const b = boletos.get(p.boletoId)!;
      const c = customers.get(receivables.get(b.receivableId)!.customerId!)!;
      return {
        movement: REMESSA_MOVEMENT[p.kind],
        nossoNumero: b.nossoNumero,
        nossoNumeroDv: b.nossoNumeroDv,
        documentNumber: b.documentNumber,
        companyRef: encodeId('boleto', b.id),
        issueDate: b.issueDate,
        dueDate: p.newDueDate ?? b.dueDate,
        amount: p.newAmount ?? b.amount,
        interestPerDay: round(b.amount.times(b.interestPerDayPercent).div(100), 'amount'),
        discountAmount: b.discountAmount,
        discountDate: b.discountDate,
        finePercent: b.finePercent,
        protestDays: b.protestDays,
        writeOffDays: b.writeOffDays,
        payer: {
          document: c.document ?? '',
          name: c.name,
          street: [c.addressStreet, c.addressNumber].filter(Boolean).join(', '),
          district: c.addressDistrict ?? '',
          postalCode: c.postalCode ?? '',
          city: c.municipalityName ?? '',
          uf: c.uf ?? '',
        },
      };
    });
    const fileNumber = await nextSequenceValue(em, ctx.companyId, remittanceSequence(account.id));
    const layout = cnabLayout(account.layout, account.bankCode);
    const file = layout.writeRemessa(cnabAccountOf(account, filial), fileNumber, new Date(), titles);
    // Our own file, read back as the bank would before it is stored (lengths, sequences, counts, sums).
    layout.parseRemessa(file.content);
    const inserted = await em.insert(Remittance, {
      companyId: ctx.companyId,
      filialId: account.filialId,
      bankAccountId: account.id,
      fileNumber,
      layout: account.layout,
      fileName: `REM${account.bankCode}${String(fileNumber).padStart(6, '0')}.REM`,
      content: file.content,
      recordCount: file.recordCount,
      instructionCount: pending.length,
      totalAmount: file.totalAmount,
      createdBy: ctx.actor,
    } as never);
    const id = Number(inserted.identifiers[0].id);
    if (
      (await claimInstructions(
        em,
        ctx.companyId,
        id,
        pending.map((p) => p.id),
      )) !== pending.length
    )
      throw new ConflictError('CONCURRENT_UPDATE', 'Another remessa took some of these instructions; retry', { retryable: true });
    const remittance = (await em.findOneBy(Remittance, { id, companyId: ctx.companyId }))!;
    await recordAudit(em, ctx, {
      entity: REMITTANCE_AUDIT,
      entityId: id,
      action: 'CREATED',
      changes: { fileNumber: [null, fileNumber], instructionCount: [null, pending.length] },
    });
    await publishEvent(em, ctx, {
      type: 'collection.remittance.created',
      filialId: account.filialId,
      aggregateType: REMITTANCE_AUDIT,
      aggregateId: id,
      data: {
        id: encodeId('remittance', id),
        bankAccountId: encodeId('bank-account', account.id),
        fileNumber,
        instructionCount: pending.length,
        totalAmount: file.totalAmount.toNumber(),
      },
    });
    return remittance;
  });
  // The file name carries the bank (a CNAB 400 file does not start with it as a 240 does).
  collectionMetrics.remittances.inc({ bank: remittance.fileName.slice(3, 6) });
  return remittance;
}

export async function getRemittance(ctx: TenantContext, id: number): Promise<Remittance> {
  const em = readerOf(ctx);
  const r = await em.findOneBy(Remittance, { id, companyId: ctx.companyId });
  if (!r) throw new NotFoundError('Remittance');
  await assertFilialAccess(ctx, r.filialId, em);
  return r;
}
