import type { Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { toSummaryDto } from './fiscal-books.mapper';
import { fiscalBookSchemas as s } from './fiscal-books.schemas';
import { bookSummary } from './fiscal-books.service';
import { summaryCsv } from './summary';

export async function summary(req: ValidRequest<typeof s.summary>, res: Response) {
  const { filialId, period } = req.valid.params;
  const result = await bookSummary(req.ctx, filialId, period);
  if (req.valid.query.format === 'csv') {
    res.type('text/csv').setHeader('Content-Disposition', `attachment; filename="livros-${period}.csv"`);
    res.send(summaryCsv(result));
    return;
  }
  res.json(toSummaryDto(result));
}
