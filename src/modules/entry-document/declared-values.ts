import { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';
import type { DeclaredValues, ItemInput } from './entry-document.types';

/*
 * The supplier's declared values of an imported NF-e line (cProd, xProd, uCom, qCom, vUnCom, vProd,
 * NCM, CFOP) and its tax-reform groups never change: a PATCH that resends an imported draft's items books its own values beside
 * them, line by line. The invoice fixes the lines, so their number does not change either (a line the
 * shop does not want is marked IGNORED).
 */

const DECLARED_FIELDS: (keyof DeclaredValues)[] = ['description', 'unit', 'quantity', 'unitPrice', 'total', 'ncm', 'cfop'];

const same = (a: unknown, b: unknown) =>
  a instanceof Dec && b instanceof Dec ? a.eq(b) : a instanceof Dec || b instanceof Dec ? String(a) === String(b) : a === b;

/** The given items with the stored lines' declared values; a different declared value given → 422 naming it. */
export function keepDeclaredValues(stored: ItemInput[], given: ItemInput[]): ItemInput[] {
  if (given.length !== stored.length) {
    throw new BusinessRuleError(
      'ENTRY_DOCUMENT_LINES_FIXED',
      `The imported NF-e has ${stored.length} lines; send all of them (mark a line IGNORED instead of removing it)`,
      { lines: stored.length },
    );
  }
  const readOnly: string[] = [];
  const items = given.map((it, i) => {
    const s = stored[i];
    if (it.supplierProductCode && it.supplierProductCode !== s.supplierProductCode) readOnly.push(`items[${i}].supplierProductCode`);
    for (const f of DECLARED_FIELDS) {
      const v = it.declared?.[f];
      if (v !== undefined && v !== null && !same(v, s.declared?.[f] ?? null)) readOnly.push(`items[${i}].declared.${f}`);
    }
    return { ...it, supplierProductCode: s.supplierProductCode, declared: s.declared, reformTaxes: s.reformTaxes };
  });
  if (readOnly.length) {
    throw new BusinessRuleError(
      'ENTRY_DOCUMENT_FIELD_READ_ONLY',
      `The supplier's declared values of an imported NF-e cannot be edited: ${readOnly.join(', ')}`,
      { fields: readOnly },
    );
  }
  return items;
}
