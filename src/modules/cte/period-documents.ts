import zlib from 'node:zlib';
import type { EntityManager } from 'typeorm';
import type { Dec } from '../../core/decimal';
import { Cte, CteStatus } from './entities/cte.entity';
import { parseCte } from './xml/cte-parser';

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

export async function takenCteOfPeriod(em: EntityManager, companyId: number, filialId: number, fromDate: string, toDate: string): Promise<TakenCteOfPeriod[]> {
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
    const parsed = await parseCte(xml);
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
        cityCode: /<enderEmit>[\s\S]*?<cMun>(\d{7})<\/cMun>/.exec(xml)?.[1] ?? null,
      },
      cteType: parsed.ide.cteType ?? '0',
      serviceTotal: r.serviceTotal,
      receivable: r.receivable,
      icms: parsed.icms ? { cst: parsed.icms.cst, base: parsed.icms.base, rate: parsed.icms.rate, value: parsed.icms.value } : null,
      startCityCode: /<cMunIni>(\d{7})<\/cMunIni>/.exec(xml)?.[1] ?? null,
      endCityCode: /<cMunFim>(\d{7})<\/cMunFim>/.exec(xml)?.[1] ?? null,
      startUf: parsed.ide.start.uf,
      endUf: parsed.ide.end.uf,
    });
  }
  return out;
}
