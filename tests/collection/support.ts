import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { api } from '../support/api';
import type { TestTenant } from '../support/tenant';

export const ACCOUNTS = '/api/collection/bank-accounts';

/** One valid account per bank (check digits by each bank's published rule; docs/decisions/collection-boleto.md). */
export const SAMPLE_ACCOUNTS: Record<string, Record<string, unknown>> = {
  '001': {
    name: 'BB cobrança',
    bankCode: '001',
    agency: '2359',
    agencyDigit: '0',
    account: '30416',
    accountDigit: '6',
    carteira: '17',
    beneficiaryCode: '1234567',
    layout: 'CNAB240',
  },
  '341': {
    name: 'Itaú cobrança',
    bankCode: '341',
    agency: '1234',
    account: '12345',
    accountDigit: '1',
    carteira: '109',
    layout: 'CNAB240',
  },
  '237': {
    name: 'Bradesco cobrança',
    bankCode: '237',
    agency: '0427',
    agencyDigit: '8',
    account: '0506511',
    accountDigit: '9',
    carteira: '09',
    layout: 'CNAB240',
  },
  '033': {
    name: 'Santander cobrança',
    bankCode: '033',
    agency: '1234',
    account: '12345678',
    accountDigit: '4',
    carteira: '101',
    beneficiaryCode: '7654321',
    layout: 'CNAB240',
  },
  '104': {
    name: 'Caixa cobrança',
    bankCode: '104',
    agency: '1234',
    account: '00112345678',
    accountDigit: '2',
    carteira: 'RG',
    beneficiaryCode: '123456',
    layout: 'CNAB240',
  },
  '756': {
    name: 'Sicoob cobrança',
    bankCode: '756',
    agency: '4321',
    account: '12345',
    accountDigit: '5',
    carteira: '1',
    beneficiaryCode: '0012345',
    layout: 'CNAB240',
  },
};

export const createAccount = (t: TestTenant, body: Record<string, unknown>, headers = t.headers()) =>
  api()
    .post(ACCOUNTS)
    .set(headers)
    .send({ filialId: t.filialHashes[0], paymentMethodCode: 'BOLETO', ...body });

export const auditRows = (t: TestTenant, entity: string, entityId: number) =>
  dataSource.manager.find(AuditLog, { where: { companyId: t.companyId, entity, entityId }, order: { id: 'ASC' } });
export const eventRows = (t: TestTenant, aggregateType: string, aggregateId: number) =>
  dataSource.manager.find(OutboxEvent, { where: { companyId: t.companyId, aggregateType, aggregateId }, order: { id: 'ASC' } });

/** A tenant with the BOLETO method, a customer with a CPF, a product with stock: an order billed in `installments` receivables. */
export async function collectionSetup(t: TestTenant) {
  const { makeCustomer, makePaymentMethod, makeProduct, addStock } = await import('../support/catalog');
  await makePaymentMethod(t, 'BOLETO', 'BANK_SLIP');
  const customer = await makeCustomer(t, {
    name: 'Maria da Silva Comércio',
    document: '52998224725',
    addressStreet: 'Rua Augusta',
    addressNumber: '1500',
    addressDistrict: 'Consolação',
    municipalityName: 'São Paulo',
    uf: 'SP',
    postalCode: '01304001',
  });
  const product = await makeProduct(t, { name: 'Furadeira', price: '100.00' as never });
  await addStock(t, 0, product.id, 100000, '40.00');
  return { customer, product };
}

export async function billedReceivables(
  t: TestTenant,
  customerHash: string,
  productHash: string,
  quantity: number,
  installmentDays: number[],
) {
  const { billedOrder } = await import('../receivables/support');
  return (await billedOrder(t, customerHash, productHash, quantity, { installmentDays })).receivables;
}

export const issueBoleto = (t: TestTenant, receivableHash: string, body: Record<string, unknown>, headers = t.headers()) =>
  api().post(`/api/receivables/${receivableHash}/boleto`).set(headers).send(body);

export const remit = (t: TestTenant, bankAccountId: string, headers = t.headers()) =>
  api().post('/api/collection/remittances').set(headers).send({ bankAccountId });
export const uploadReturn = (t: TestTenant, bankAccountId: string, content: string, headers = t.headers()) =>
  api().post('/api/collection/returns').set(headers).send({ bankAccountId, content });
export async function remittanceFile(t: TestTenant, remittanceId: string): Promise<string> {
  const res = await api().get(`/api/collection/remittances/${remittanceId}/file`).set(t.headers());
  if (res.status !== 200) throw new Error(`download ${res.status}: ${res.text}`);
  return res.text;
}

/** The simulator's view of an account (what the bank knows of it). */
export async function simulatorAccount(t: TestTenant, accountHash: string) {
  const { decodeId } = await import('../../src/core/hashids');
  const { BankAccount } = await import('../../src/modules/collection/entities/bank-account.entity');
  const { Filial } = await import('../../src/modules/tenancy/entities/filial.entity');
  const { dataSource } = await import('../../src/core/db/data-source');
  const a = await dataSource.manager.findOneByOrFail(BankAccount, { id: decodeId('bank-account', accountHash) });
  const f = await dataSource.manager.findOneByOrFail(Filial, { id: a.filialId });
  return {
    bankCode: a.bankCode,
    agency: a.agency,
    agencyDigit: a.agencyDigit,
    account: a.account,
    accountDigit: a.accountDigit,
    beneficiaryCode: a.beneficiaryCode,
    carteiraVariation: a.carteiraVariation,
    transmissionCode: a.transmissionCode,
    companyName: f.name,
    companyDocument: f.cnpj,
    carteira: a.carteira,
  };
}
