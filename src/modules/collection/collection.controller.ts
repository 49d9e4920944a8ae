import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { collectionSchemas as s } from './collection.schemas';
import { toBankAccountDto, toBoletoDto, toRemittanceDto, toReturnReportDto } from './collection.mapper';
import { createRemittance, getRemittance } from './remittances.service';
import { processReturn } from './returns.service';
import { boletoPdf, boletosOfReceivable, cancelBoleto, getBoleto, instructBoleto, issueBoleto } from './boletos.service';
import { createBankAccount, deleteBankAccount, getBankAccount, listBankAccounts, updateBankAccount } from './bank-accounts.service';
import { accountHasTitles } from './titles';

/** Thin handlers: validated input → one service call → DTO. */

export async function createAccount(req: ValidRequest<typeof s.createAccount>, res: Response) {
  res.status(201).json(toBankAccountDto(await createBankAccount(req.ctx, req.valid.body)));
}

export async function listAccounts(req: ValidRequest<typeof s.listAccounts>, res: Response) {
  res.json({ data: (await listBankAccounts(req.ctx, req.valid.query)).map(toBankAccountDto) });
}

export async function account(req: ValidRequest<typeof s.account>, res: Response) {
  res.json(toBankAccountDto(await getBankAccount(req.ctx, req.valid.params.id)));
}

export async function updateAccount(req: ValidRequest<typeof s.updateAccount>, res: Response) {
  res.json(toBankAccountDto(await updateBankAccount(req.ctx, req.valid.params.id, req.valid.body, accountHasTitles)));
}

export async function deleteAccount(req: ValidRequest<typeof s.account>, res: Response) {
  await deleteBankAccount(req.ctx, req.valid.params.id, accountHasTitles);
  res.status(204).end();
}

export async function issue(req: ValidRequest<typeof s.issueBoleto>, res: Response) {
  res.status(201).json(toBoletoDto(await issueBoleto(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function receivableBoletos(req: ValidRequest<typeof s.receivableBoletos>, res: Response) {
  res.json({ data: (await boletosOfReceivable(req.ctx, req.valid.params.id)).map(toBoletoDto) });
}

export async function boleto(req: ValidRequest<typeof s.boleto>, res: Response) {
  res.json(toBoletoDto(await getBoleto(req.ctx, req.valid.params.id)));
}

export async function pdf(req: ValidRequest<typeof s.boleto>, res: Response) {
  const { fileName, pdf } = await boletoPdf(req.ctx, req.valid.params.id);
  res.type('application/pdf').setHeader('Content-Disposition', `inline; filename="${fileName}"`);
  res.send(pdf);
}

export async function instruct(req: ValidRequest<typeof s.instruct>, res: Response) {
  res.status(201).json(toBoletoDto(await instructBoleto(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function cancel(req: ValidRequest<typeof s.boleto>, res: Response) {
  res.json(toBoletoDto(await cancelBoleto(req.ctx, req.valid.params.id)));
}

export async function remit(req: ValidRequest<typeof s.createRemittance>, res: Response) {
  res.status(201).json(toRemittanceDto(await createRemittance(req.ctx, req.valid.body.bankAccountId)));
}

export async function remittance(req: ValidRequest<typeof s.remittance>, res: Response) {
  res.json(toRemittanceDto(await getRemittance(req.ctx, req.valid.params.id)));
}

export async function remittanceFile(req: ValidRequest<typeof s.remittance>, res: Response) {
  const r = await getRemittance(req.ctx, req.valid.params.id);
  res.type('text/plain; charset=us-ascii').setHeader('Content-Disposition', `attachment; filename="${r.fileName}"`);
  res.send(r.content);
}

export async function uploadReturn(req: ValidRequest<typeof s.uploadReturn>, res: Response) {
  res.status(201).json(toReturnReportDto(await processReturn(req.ctx, req.valid.body.bankAccountId, req.valid.body.content)));
}
