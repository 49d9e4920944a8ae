import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { loadFiscalBook } from './book';
import { BookSummary, summarize } from './summary';

/** Livros of a filial's month: the fiscal book (the same one the EFD is written from) grouped by CFOP/CST/rate. */
export async function bookSummary(ctx: TenantContext, filialId: number, period: string): Promise<BookSummary> {
  return summarize(await loadFiscalBook(readerOf(ctx), ctx.companyId, filialId, period));
}
