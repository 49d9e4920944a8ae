import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { FiscalOperationRule } from '../../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { TaxGroup } from '../../src/modules/fiscal/entities/tax-group.entity';
import { addStock, makeProduct } from '../support/catalog';
import type { TestTenant } from '../support/tenant';
import { fiscalDataChanged } from '../../src/modules/fiscal';

/*
 * The totals of an emitted NF-e/NFC-e read back from its XML (issue 43): vNF, vNFTot, each vItem and
 * their sum, IBSCBSTot's vIBS/vCBS, cobr (fat and every dup) and pag (every detPag and vTroco).
 */

export interface XmlTotals {
  vNF: string;
  vNFTot: string | null;
  vIBS: string | null;
  vCBS: string | null;
  vItem: string[];
  /** Σ vItem (null when no item carries one). */
  sumVItem: string | null;
  items: number;
  vOrig: string | null;
  vLiq: string | null;
  dup: { nDup: string; dVenc: string; vDup: string }[];
  pag: { indPag: string | null; tPag: string; vPag: string }[];
  vTroco: string | null;
}

const one = (xml: string, tag: string): string | null => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;
const all = (xml: string, tag: string): string[] => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);

export function totalsOfXml(xml: string): XmlTotals {
  const infNFe = /<infNFe[^>]*>(.*)<\/infNFe>/s.exec(xml)![1];
  const total = /<total>(.*)<\/total>/s.exec(infNFe)![1];
  const ibsTot = /<IBSCBSTot>(.*)<\/IBSCBSTot>/s.exec(total)?.[1] ?? null;
  const vItem = all(infNFe, 'vItem');
  const cobr = /<cobr>(.*)<\/cobr>/s.exec(infNFe)?.[1] ?? '';
  const pag = /<pag>(.*)<\/pag>/s.exec(infNFe)?.[1] ?? '';
  return {
    vNF: one(total, 'vNF')!,
    vNFTot: one(total, 'vNFTot'),
    vIBS: ibsTot ? (/<gIBS>.*<vIBS>([^<]*)<\/vIBS>/s.exec(ibsTot)?.[1] ?? null) : null,
    vCBS: ibsTot ? (/<gCBS>.*<vCBS>([^<]*)<\/vCBS>/s.exec(ibsTot)?.[1] ?? null) : null,
    vItem,
    sumVItem: vItem.length ? vItem.reduce((s, v) => s.plus(v), new Dec(0)).toFixed(2) : null,
    items: (infNFe.match(/<det nItem=/g) ?? []).length,
    vOrig: one(cobr, 'vOrig'),
    vLiq: one(cobr, 'vLiq'),
    dup: [...cobr.matchAll(/<dup><nDup>([^<]*)<\/nDup><dVenc>([^<]*)<\/dVenc><vDup>([^<]*)<\/vDup><\/dup>/g)].map((m) => ({
      nDup: m[1],
      dVenc: m[2],
      vDup: m[3],
    })),
    pag: [...pag.matchAll(/<detPag>(.*?)<\/detPag>/g)].map((m) => ({
      indPag: one(m[1], 'indPag'),
      tPag: one(m[1], 'tPag')!,
      vPag: one(m[1], 'vPag')!,
    })),
    vTroco: one(pag, 'vTroco'),
  };
}

/** Σ of decimal strings, to the cent. */
export const sumOf = (values: (string | Dec)[]): string => values.reduce<Dec>((s, v) => s.plus(v), new Dec(0)).toFixed(2);

/** A stocked product taxed by ST (MVA 40 %, CST 10) in SP sales, contributor or not: its line adds vICMSST outside the price. */
export async function stProductOf(t: TestTenant): Promise<{ id: number; hash: string }> {
  const em = dataSource.manager;
  const group = await em.save(
    em.create(TaxGroup, {
      companyId: t.companyId,
      code: `ST-MVA-${Math.random().toString(36).slice(2, 8)}`,
      name: 'ST por MVA',
      active: true,
    }),
  );
  const base = {
    companyId: t.companyId,
    taxGroupId: group.id,
    operation: 'SALE' as const,
    destination: 'INTERNAL' as const,
    validFrom: '2000-01-01',
    validTo: null,
    active: true,
  };
  await em.save(
    [true, false].map((contributor) =>
      em.create(FiscalOperationRule, {
        ...base,
        contributor,
        cfop: '5401',
        icmsCst: '10',
        csosn: '201',
        stMode: 'MVA',
        stMva: new Dec(40),
      }),
    ),
  );
  await fiscalDataChanged(em, t.companyId);
  const p = await makeProduct(t, { ncm: '22021000', gtin: null } as never);
  await em.update(Product, { id: p.id, companyId: t.companyId }, { taxGroupId: group.id, origin: 0, cest: '0300700' });
  await addStock(t, 0, p.id, 1000, '3');
  return p;
}
