import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { decodeId } from '../../src/core/hashids';
import { NfeInbound } from '../../src/modules/inbound-nfe/entities/nfe-inbound.entity';
import { recordAuthorityCheck } from '../../src/modules/inbound-nfe/upload-trust';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { buildNfe, NfeSpec } from '../support/nfe-builder';
import { createTestTenant, TestTenant } from '../support/tenant';

/** Helpers shared by the NF-e API tests. */

export const NFE = '/api/entry-document/nfe';

export async function filialDocument(t: TestTenant, index = 0): Promise<string> {
  return (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[index] })).cnpj;
}

/** Gives filial `index` this CNPJ/CPF (the recipient of a real sample). */
export async function setFilialDocument(t: TestTenant, index: number, document: string): Promise<void> {
  await dataSource.manager.update(Filial, { id: t.filialIds[index], companyId: t.companyId }, { cnpj: document });
}

export interface NfeTenant extends TestTenant {
  /** CNPJ of filial 0, the recipient of `nfe()` documents. */
  document: string;
  /** A valid signed nfeProc addressed to filial `filialIndex` (default 0). */
  nfe: (spec?: Partial<NfeSpec>, filialIndex?: number) => Promise<ReturnType<typeof buildNfe>>;
}

export async function nfeTenant(opts: Parameters<typeof createTestTenant>[0] = {}): Promise<NfeTenant> {
  const t = await createTestTenant(opts);
  const document = await filialDocument(t, 0);
  const docs = new Map<number, string>([[0, document]]);
  return Object.assign(t, {
    document,
    nfe: async (spec: Partial<NfeSpec> = {}, filialIndex = 0) => {
      if (!docs.has(filialIndex)) docs.set(filialIndex, await filialDocument(t, filialIndex));
      return buildNfe({
        items: [{ code: 'A1', description: 'ARROZ TIPO 1 5KG', quantity: '10', unitPrice: '21.90' }],
        recipient: { cnpj: docs.get(filialIndex)! },
        ...spec,
      });
    },
  });
}

/** Rows of a table for one tenant (database assertions). */
export async function rowsOf(
  table: string,
  companyId: number,
  where = '',
  params: unknown[] = [],
  orderBy = 'id',
): Promise<Record<string, unknown>[]> {
  return dataSource.query(`SELECT * FROM ${table} WHERE company_id = ? ${where ? `AND ${where}` : ''} ORDER BY ${orderBy}`, [
    companyId,
    ...params,
  ]);
}

export const countOf = async (table: string, companyId: number, where = '', params: unknown[] = []) =>
  (await rowsOf(table, companyId, where, params)).length;

/** What POST /entry-document/nfe/consultar-protocolo records when NFeConsultaProtocolo4 answers 100 with the document's digVal. */
async function recordConfirmed(
  t: Pick<TestTenant, 'companyId' | 'ctx'>,
  where: { filialId: number; accessKey: string } | { id: number },
): Promise<void> {
  await inTransaction(NO_UNIT, async (em) => {
    const inbound = await em.findOneByOrFail(NfeInbound, { companyId: t.companyId, ...where });
    await recordAuthorityCheck(em, t.ctx, inbound, {
      outcome: 'CONFIRMED',
      cStat: '100',
      xMotivo: 'Autorizado o uso da NF-e',
      protocol: inbound.protocolNumber,
    });
  });
}

/**
 * The authority confirmed the key of an uploaded NF-e: suites about other rules confirm their uploads
 * after this; tests/nfe/signer-trust.test.ts goes through the real consultation (the local simulator).
 */
export const authorityConfirmed = (t: TestTenant, accessKey: string, filialIndex = 0) =>
  recordConfirmed(t, { filialId: t.filialIds[filialIndex], accessKey });

/** An importar-xml answer passed through: when it imported, the authority confirmed its key (authorityConfirmed). */
export async function uploadConsulted<R extends { status: number; body: any }>(
  t: Pick<TestTenant, 'companyId' | 'ctx'>,
  res: R,
): Promise<R> {
  if (res.status === 201 && res.body?.inbound?.id) await recordConfirmed(t, { id: decodeId('nfe-inbound', res.body.inbound.id) });
  return res;
}
