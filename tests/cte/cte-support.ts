import { expect } from 'chai';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { Dec } from '../../src/core/decimal';
import { postToLedger } from '../../src/modules/stock/stock-ledger.service';
import { api } from '../support/api';
import { buildCte, BuiltCte, CteSpec } from '../support/cte-builder';
import { NfeItemSpec } from '../support/nfe-builder';
import { NFE, nfeTenant, NfeTenant, uploadConsulted } from '../nfe/nfe-support';

/** Helpers shared by the CT-e API tests. */

export const CTE = '/api/entry-document/cte';

export interface CteTenant extends NfeTenant {
  /** A valid signed cteProc the filial pays (FOB: the recipient is the payer) over these NF-e keys. */
  cte: (spec: Omit<Partial<CteSpec>, 'recipient'> & { total: string; nfeKeys: string[] }) => BuiltCte;
}

export async function cteTenant(opts: Parameters<typeof nfeTenant>[0] = {}): Promise<CteTenant> {
  const t = await nfeTenant(opts);
  return Object.assign(t, {
    cte: (spec: Omit<Partial<CteSpec>, 'recipient'> & { total: string; nfeKeys: string[] }) =>
      buildCte({ recipient: { cnpj: t.document }, ...spec }),
  });
}

/** Imports an NF-e with its lines mapped to the given products; answers the draft's id and the NF-e key. */
export async function importNfe(
  t: NfeTenant,
  items: (NfeItemSpec & { productId: string; conversionFactor?: number })[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; accessKey: string }> {
  const built = await t.nfe({
    items: items.map(({ productId: _p, conversionFactor: _c, ...spec }) => ({ icms: { cst: '40' as const }, ...spec })),
    ...extra,
  });
  const res = await uploadConsulted(
    t,
    await api()
      .post(`${NFE}/importar-xml`)
      .set(t.headers())
      .send({
        xml: built.xml,
        items: items.map((it, i) => ({ lineNumber: i + 1, productId: it.productId, conversionFactor: it.conversionFactor ?? 1 })),
      }),
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.entryDocument.id, accessKey: built.accessKey };
}

export async function stage(t: CteTenant, built: BuiltCte): Promise<string> {
  const res = await api().post(`${CTE}/stage-xml`).set(t.headers()).send({ xml: built.xml });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.cte.id;
}

export async function confirm(t: NfeTenant, id: string) {
  const res = await api().post(`/api/entry-document/confirm/${id}`).set(t.headers());
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** Goods leave the stock (a sale, as far as the ledger is concerned). */
export const sell = (t: NfeTenant, productId: number, quantity: string) =>
  inTransaction(NO_UNIT, (em) =>
    postToLedger(em, {
      companyId: t.companyId,
      filialId: t.filialIds[0],
      reason: 'SALE',
      referenceType: 'test',
      referenceId: 1,
      lines: [{ productId, direction: 'OUT', quantity: new Dec(quantity) }],
    }),
  );
