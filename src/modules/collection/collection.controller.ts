import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { collectionSchemas as s } from './collection.schemas';
import { toBankAccountDto } from './collection.mapper';
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
