import { Dec } from '../../core/decimal';
import type { ComputedFiscalDocument } from './fiscal-document';

/*
 * What the law makes a document say in infCpl, beside the operator's notes: the Simples Nacional
 * statements of an ME/EPP (Res. CGSN 140/2018 art. 59: "documento emitido por ME ou EPP optante pelo
 * Simples Nacional", "não gera direito a crédito fiscal de IPI") and, with CSOSN 101/201, the ICMS
 * credit the buyer may take, with its value and rate (LC 123/2006 art. 23 §§ 1–2; Res. CGSN 140/2018
 * art. 59 §§ 1–2). docs/decisions/tax-law-rows.md, row 4.
 */

const brl = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2).replace('.', ',');

/** The CSOSN 101/201 credit of the document: Σ vCredICMSSN at the filial's pCredSN; null when none. */
export function simplesCreditOf(doc: Pick<ComputedFiscalDocument, 'items'>): { rate: Dec; value: Dec } | null {
  const credited = doc.items.filter((i) => i.icms.simplesCreditValue?.gt(0));
  if (!credited.length) return null;
  const value = credited.reduce((s, i) => s.plus(i.icms.simplesCreditValue!), new Dec(0));
  return { rate: credited[0].icms.simplesCreditRate!, value };
}

/** The statements the law asks of this document, in the order infCpl prints them. */
export function legalStatements(doc: Pick<ComputedFiscalDocument, 'items' | 'issuer'>): string[] {
  const out: string[] = [];
  // CRT 1 and 2 are both ME/EPP optantes (2 only pays ICMS/ISS outside the DAS above the sublimit).
  if (doc.issuer.crt === 1 || doc.issuer.crt === 2) {
    out.push('DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL', 'NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI');
    const credit = simplesCreditOf(doc);
    if (credit) {
      out.push(
        `PERMITE O APROVEITAMENTO DO CRÉDITO DE ICMS NO VALOR DE R$ ${brl(credit.value)}; CORRESPONDENTE À ALÍQUOTA DE ${brl(credit.rate)}%, NOS TERMOS DO ART. 23 DA LC 123/2006`,
      );
    }
  }
  return out;
}
