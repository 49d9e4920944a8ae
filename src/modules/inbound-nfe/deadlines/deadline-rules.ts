/*
 * Deadlines for the recipient's conclusive manifestation of an NF-e (confirmação, desconhecimento,
 * operação não realizada), counted in calendar days from the authorization date (Brasília):
 *
 * - General rule: the national environment refuses a manifestation "apresentado apos o prazo
 *   permitido para o evento: [6 meses]" (cStat 596, real AN replies of 2020 in ../shared/fixtures);
 *   ERP vendors' documentation states 180 days. Configurable (NFE_MANIFESTATION_DEADLINE_DAYS) because
 *   it is the authority's data, not ours; sped-nfe's notes still state an older 90 days.
 * - Federal obligation for fuel (the NF-e carries the fuel group `comb`, Ajuste SINIEF 07/05 as summed
 *   up in sped-nfe docs/metodos/PrazoManifestacao.md): internal operation 20 days for confirmação and
 *   operação não realizada, 10 for desconhecimento; interstate 35 / 15; interstate to the incentive
 *   area (a recipient with a SUFRAMA inscription, dest/ISUF) 70 / 15.
 * - Not applied: the same federal deadlines for cigarettes, beverages and water bought by a distributor
 *   or wholesaler (the invoice does not say what the recipient is), and the states' own value-based
 *   obligations (they use the federal or general deadlines anyway).
 * A record known only by its summary has no items: the general rule is used and marked provisional
 * until its XML arrives.
 */
import { businessToday } from '../../../core/business-date';
import { asArray, childAt, readXml, textAt } from '../../fiscal-xml';
import type { XNode } from '../../fiscal-xml';

export type DeadlineRule = 'GENERAL' | 'FUEL_INTERNAL' | 'FUEL_INTERSTATE' | 'FUEL_INCENTIVE_AREA';

export interface DeadlineFacts {
  /** The authorization instant (protNFe/dhRecbto or the summary's). */
  authorizedAt: Date;
  /** From the full XML; null when only the summary is known. */
  invoice: { hasFuel: boolean; interstate: boolean; incentiveArea: boolean } | null;
}

export interface ManifestationDeadlines {
  rule: DeadlineRule;
  provisional: boolean;
  /** Last calendar day (Brasília, YYYY-MM-DD) of each event. */
  confirmacao: string;
  desconhecimento: string;
  naoRealizada: string;
  /** The earliest of the three: what the alerts count down to. */
  dueDate: string;
}

const DAY = 86_400_000;
/** The calendar day of an instant in Brasília time (core/business-date.ts). */
export const brasiliaDate = businessToday;

export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Whole days from `from` to `to` (calendar dates). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);

const FUEL: Record<Exclude<DeadlineRule, 'GENERAL'>, { conclusive: number; unknown: number }> = {
  FUEL_INTERNAL: { conclusive: 20, unknown: 10 },
  FUEL_INTERSTATE: { conclusive: 35, unknown: 15 },
  FUEL_INCENTIVE_AREA: { conclusive: 70, unknown: 15 },
};

export function manifestationDeadlines(facts: DeadlineFacts, generalDays: number): ManifestationDeadlines {
  const authorized = brasiliaDate(facts.authorizedAt);
  const inv = facts.invoice;
  const rule: DeadlineRule = !inv?.hasFuel
    ? 'GENERAL'
    : !inv.interstate
      ? 'FUEL_INTERNAL'
      : inv.incentiveArea
        ? 'FUEL_INCENTIVE_AREA'
        : 'FUEL_INTERSTATE';
  const days = rule === 'GENERAL' ? { conclusive: generalDays, unknown: generalDays } : FUEL[rule];
  const confirmacao = addDays(authorized, days.conclusive);
  const desconhecimento = addDays(authorized, days.unknown);
  return {
    rule,
    provisional: inv === null,
    confirmacao,
    desconhecimento,
    naoRealizada: confirmacao,
    dueDate: desconhecimento < confirmacao ? desconhecimento : confirmacao,
  };
}

/** The facts the rules need from an NF-e's XML (validated before it was stored). */
export function invoiceFacts(xml: string, issuerUf: string | null, recipientUf: string): DeadlineFacts['invoice'] {
  const tree = readXml(xml);
  const inf = childAt(tree, 'nfeProc', 'NFe', 'infNFe') ?? childAt(tree, 'NFe', 'infNFe');
  const idDest = /^\d$/.exec(textAt(inf, 'ide', 'idDest') ?? '')?.[0];
  const destUf = /^[A-Z]{2}$/.exec(textAt(inf, 'dest', 'enderDest', 'UF') ?? '')?.[0] ?? recipientUf;
  const interstate = idDest ? idDest !== '1' : !!issuerUf && issuerUf !== destUf;
  return {
    hasFuel: asArray(inf?.det as XNode | XNode[] | undefined).some((det) => childAt(det, 'prod', 'comb') !== null),
    interstate,
    incentiveArea: /^\d+$/.test(textAt(inf, 'dest', 'ISUF') ?? ''),
  };
}
