import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { documentSearchPrefix, normalizeText } from '../../core/br-documents';
import { Supplier } from './entities/supplier.entity';

/*
 * A list filter by supplier for the modules whose rows name one (entry documents, payables): the
 * supplier master is catalog's, so the search over it lives here.
 */

/** Rows of the supplier master matching a document prefix or a name fragment (for list filters). */
export function supplierFilter(
  qb: SelectQueryBuilder<ObjectLiteral>,
  column: string,
  companyId: number,
  term: string,
  param = 'sup',
): void {
  const doc = documentSearchPrefix(term);
  const sub = qb
    .subQuery()
    .select('s.id')
    .from(Supplier, 's')
    .where(`s.company_id = :${param}Company`)
    .andWhere(
      new Brackets((w) => {
        w.where(`s.search_name LIKE :${param}Name`);
        if (doc) w.orWhere(`s.document LIKE :${param}Doc`);
      }),
    )
    .getQuery();
  qb.andWhere(`${column} IN ${sub}`, {
    [`${param}Company`]: companyId,
    [`${param}Name`]: `%${normalizeText(term)}%`,
    ...(doc ? { [`${param}Doc`]: `${doc}%` } : {}),
  });
}
