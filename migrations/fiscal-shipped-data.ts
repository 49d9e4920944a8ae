import type { QueryRunner } from 'typeorm';

/*
 * The fiscal data shipped with the service (migration FiscalEngine, both engines), as rows of
 * company 0: a company's own rows override them, and an operator may update these rows without a
 * deploy (each row names its source and date). SPEC §12.1; docs/decisions.md "Tax engine".
 */

const UF_SOURCE = 'Alíquota interna modal de cada UF (RICMS/lei estadual vigente), compilação do serviço';
const UF_SOURCE_DATE = '2026-01-01';

/**
 * [uf, internal rate without FCP, FCP applying to every product, DIFAL on the base dupla]. FCP on
 * listed goods only (MG, BA, AL…) is a company override per tax group, not a UF-wide rate.
 */
export const UF_RATES: [string, string, string, boolean][] = [
  ['AC', '19', '0', false],
  ['AL', '19', '0', true],
  ['AM', '20', '0', false],
  ['AP', '18', '0', false],
  ['BA', '20.5', '0', true],
  ['CE', '20', '0', false],
  ['DF', '20', '0', false],
  ['ES', '17', '0', false],
  ['GO', '19', '0', true],
  ['MA', '23', '0', false],
  ['MG', '18', '0', true],
  ['MS', '17', '0', false],
  ['MT', '17', '0', false],
  ['PA', '19', '0', true],
  ['PB', '20', '0', false],
  ['PE', '20.5', '0', true],
  ['PI', '22.5', '0', true],
  ['PR', '19.5', '0', true],
  ['RJ', '20', '2', false],
  ['RN', '20', '0', false],
  ['RO', '19.5', '0', false],
  ['RR', '20', '0', false],
  ['RS', '17', '0', true],
  ['SC', '17', '0', true],
  ['SE', '19', '1', true],
  ['SP', '18', '0', false],
  ['TO', '20', '0', true],
];

/** [code, from, to, PIS/COFINS apply, IBS/CBS group, informative only, CBS %, IBS UF %, IBS mun %, source]. */
export const RULE_SETS: [string, string, string | null, boolean, boolean, boolean, string, string, string, string][] = [
  ['2025', '2000-01-01', '2025-12-31', true, false, false, '0', '0', '0', 'Before the reform (LC 214/2025): PIS/COFINS, no IBS/CBS group'],
  [
    '2026',
    '2026-01-01',
    '2026-12-31',
    true,
    true,
    true,
    '0.9',
    '0.1',
    '0',
    'LC 214/2025 art. 343, 346; NT 2025.002: test year, CBS 0.9 %, IBS 0.1 %, informative',
  ],
  [
    '2027',
    '2027-01-01',
    '2028-12-31',
    false,
    true,
    false,
    '8.7',
    '0.05',
    '0.05',
    'LC 214/2025 arts. 343, 344, 353, 544: PIS/COFINS extinct, CBS at its reference rate (estimate 8.8 − 0.1 until the Senate fixes it), IBS 0.05 + 0.05',
  ],
];

const SOURCE_DATE = '2026-01-01';

export async function insertFiscalShippedData(q: QueryRunner, quote: (name: string) => string): Promise<void> {
  const ufCols = [
    'company_id',
    'uf',
    'tax_group_id',
    'valid_from',
    'valid_to',
    'internal_rate',
    'fcp_rate',
    'difal_double_base',
    'source',
    'source_date',
    'version',
  ];
  await q.query(
    `INSERT INTO ${quote('fiscal_uf_rate')} (${ufCols.map(quote).join(', ')}) VALUES ${UF_RATES.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    UF_RATES.flatMap(([uf, rate, fcp, doubleBase]) => [
      0,
      uf,
      0,
      '2000-01-01',
      null,
      Number(rate).toFixed(4),
      Number(fcp).toFixed(4),
      doubleBase ? 1 : 0,
      UF_SOURCE,
      UF_SOURCE_DATE,
      1,
    ]),
  );
  const rsCols = [
    'company_id',
    'code',
    'valid_from',
    'valid_to',
    'pis_cofins',
    'ibs_cbs',
    'ibs_cbs_informative',
    'cbs_rate',
    'ibs_uf_rate',
    'ibs_mun_rate',
    'ibs_cbs_cst',
    'ibs_cbs_class',
    'source',
    'source_date',
  ];
  await q.query(
    `INSERT INTO ${quote('fiscal_rule_set')} (${rsCols.map(quote).join(', ')}) VALUES ${RULE_SETS.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    RULE_SETS.flatMap(([code, from, to, pc, ic, inf, cbs, ibsUf, ibsMun, source]) => [
      0,
      code,
      from,
      to,
      pc ? 1 : 0,
      ic ? 1 : 0,
      inf ? 1 : 0,
      Number(cbs).toFixed(4),
      Number(ibsUf).toFixed(4),
      Number(ibsMun).toFixed(4),
      '000',
      '000001',
      source,
      SOURCE_DATE,
    ]),
  );
}
