import { defineRoutes } from '../../core/http/route';
import * as c from './fiscal-books.controller';
import { FiscalBookCsv, FiscalBookSummary } from './fiscal-books.responses';
import { fiscalBookSchemas as s } from './fiscal-books.schemas';

const TAG = 'Fiscal books';

export const fiscalBookRoutes = defineRoutes([
  {
    method: 'get',
    path: '/fiscal-books/:filialId/:period/summary',
    tag: TAG,
    summary:
      'Livros of a month (entradas and saídas) by CFOP, CST and ICMS rate: operation value, ICMS base and value, ST, IPI, DIFAL, FCP, PIS, COFINS, from the NF-e and NFC-e issued, the entry documents booked and the CT-e taken; cancelled, denied and voided documents left out (?format=csv for a spreadsheet)',
    scope: 'fiscal:read',
    schema: s.summary,
    responses: { body: FiscalBookSummary, alternateContent: { 'text/csv': FiscalBookCsv }, errors: { 404: ['FILIAL_NOT_FOUND'] } },
    handler: c.summary,
  },
]);
