import zlib from 'node:zlib';
import type { EntityManager } from 'typeorm';
import type { Dec } from '../../core/decimal';
import { childAt, readXml, textAt } from '../fiscal-xml';
import { Cte, CteStatus } from './entities/cte.entity';
import { readCte } from './xml/cte-parser';

/* The CT-e a filial took as freight in a span (by entry date, else issue date), for the fiscal books and the EFD (D100/D190). */

export interface TakenCteOfPeriod {
  cteId: number;
  accessKey: string;
  status: CteStatus;
  series: string;
  number: string;
  issueDate: string;
  entryDate: string;
  carrier: { document: string; name: string; stateRegistration: string | null; uf: string | null; cityCode: string | null };
  /** cteType: 0 normal, 1 complementary, 3 substitute. */
  cteType: string;
  serviceTotal: Dec;
  receivable: Dec;
  icms: { cst: string | null; base: Dec | null; rate: Dec | null; value: Dec | null } | null;
  /** cMunIni / cMunFim (IBGE). */
  startCityCode: string | null;
  endCityCode: string | null;
  startUf: string | null;
  endUf: string | null;
}

/** An IBGE city code as the layout writes it (seven digits), else null. */
const cityCode = (text: string | null) => (text && /^\d{7}$/.test(text) ? text : null);

export async function takenCteOfPeriod(
  em: EntityManager,
  companyId: number,
  filialId: number,
  fromDate: string,
  toDate: string,
): Promise<TakenCteOfPeriod[]> {
  const rows = await em
    .createQueryBuilder(Cte, 'c')
    .addSelect('c.xmlGzip')
    .where('c.company_id = :companyId AND c.filial_id = :filialId', { companyId, filialId })
    .andWhere('c.status IN (:...statuses)', { statuses: ['RECEIVED', 'APPORTIONED', 'CANCELLED'] })
    .andWhere('COALESCE(c.entry_date, c.issue_date) BETWEEN :fromDate AND :toDate', { fromDate, toDate })
    .orderBy('c.id', 'ASC')
    .getMany();
  const out: TakenCteOfPeriod[] = [];
  for (const r of rows) {
    const xml = zlib.gunzipSync(r.xmlGzip).toString('utf8');
    // one read: the CT-e reader and the city codes it does not keep walk the same tree
    const tree = readXml(xml);
    const parsed = readCte(tree);
    const inf = childAt(tree, 'cteProc', 'CTe', 'infCte') ?? childAt(tree, 'CTe', 'infCte');
    out.push({
      cteId: r.id,
      accessKey: r.accessKey,
      status: r.status,
      series: r.series,
      number: r.number,
      issueDate: r.issueDate,
      entryDate: r.entryDate ?? r.issueDate,
      carrier: {
        document: r.issuerDocument,
        name: r.issuerName,
        stateRegistration: r.issuerStateRegistration,
        uf: r.issuerUf,
        cityCode: cityCode(textAt(inf, 'emit', 'enderEmit', 'cMun')),
      },
      cteType: parsed.ide.cteType ?? '0',
      serviceTotal: r.serviceTotal,
      receivable: r.receivable,
      icms: parsed.icms ? { cst: parsed.icms.cst, base: parsed.icms.base, rate: parsed.icms.rate, value: parsed.icms.value } : null,
      startCityCode: cityCode(textAt(inf, 'ide', 'cMunIni')),
      endCityCode: cityCode(textAt(inf, 'ide', 'cMunFim')),
      startUf: parsed.ide.start.uf,
      endUf: parsed.ide.end.uf,
    });
  }
  return out;
}
