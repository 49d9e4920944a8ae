import type { EntityManager } from 'typeorm';
import { definePort } from '../../core/port';
import type { Dec } from '../../core/decimal';

/**
 * The ICMS-ST an entry of the goods paid, as the confirmed entry line states it (vBCST, pICMSST, vICMSST,
 * the substitute's own vICMS, the FCP-ST apart), with the line's quantity in the product's stock unit.
 * A resale of those goods with CST 60 / CSOSN 500 declares them again as retained (MOC 7.0 N26–N27d).
 */
export interface RetainedStEntry {
  productId: number;
  entryDocumentId: number;
  number: string;
  series: string;
  entryDate: string;
  supplierDocument: string;
  /** The entry line's quantity in the product's stock unit (its conversion factor applied). */
  stockQuantity: Dec;
  stBase: Dec;
  stRate: Dec | null;
  /** vICMSST without the FCP-ST. */
  stValue: Dec;
  /** The substitute's own ICMS on the goods (vICMS of the entry line); null when the entry states none. */
  substituteIcms: Dec | null;
  fcpBase: Dec | null;
  fcpRate: Dec | null;
  fcpValue: Dec | null;
}

/**
 * Entry documents depend on the fiscal module's neighbours (catalog, tenancy); the fiscal module reaches
 * their ST figures through this port (core/port.ts), plugged in by src/modules/index.ts.
 */
export interface RetainedStSource {
  /** Per product, the last confirmed entry at the filial up to `date` whose line paid ICMS-ST (none → absent). */
  lastEntries(em: EntityManager, companyId: number, filialId: number, productIds: number[], date: string): Promise<RetainedStEntry[]>;
}
export const retainedStSource = definePort<RetainedStSource>('retainedStSource');
