import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { PixCharge } from '../../src/modules/collection/entities/pix-charge.entity';
import { PixPayment } from '../../src/modules/collection/entities/pix-payment.entity';
import { PixRefund } from '../../src/modules/collection/entities/pix-refund.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { PspSimulator, startPspSimulator } from '../../src/dev/psp-simulator';
import { api, app } from '../support/api';
import type { TestTenant } from '../support/tenant';
import { createAccount, SAMPLE_ACCOUNTS } from './support';

export const PIX_KEY = 'financeiro@mercearia.com.br';
export const WEBHOOK_SECRET = 'segredo-compartilhado-do-webhook-46';

/** The app listening on a port of its own, so the simulator's callbacks reach it over HTTP. */
export async function listen(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A bank account with a Pix key at the first filial, its filial named and placed (merchant name and city), and its PSP connection to the simulator. */
export async function pixAccount(t: TestTenant, sim: PspSimulator, appUrl: string | null, key = PIX_KEY) {
  await dataSource.manager.update(
    Filial,
    { id: t.filialIds[0], companyId: t.companyId },
    { tradeName: 'Mercearia Boa Vista', municipalityName: 'São Paulo', postalCode: '01304001' },
  );
  const acc = await createAccount(t, {
    ...SAMPLE_ACCOUNTS['341'],
    pixKey: key,
    pspCode: 'API_PIX_V2',
    finePercent: 2,
    interestPerDayPercent: '0.0333',
  });
  expect(acc.status, JSON.stringify(acc.body)).to.equal(201);
  const conn = await putConnection(t, acc.body.id, {
    baseUrl: sim.apiUrl,
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    webhookSecret: WEBHOOK_SECRET,
    ...(appUrl ? { webhookBaseUrl: appUrl } : {}),
  });
  expect(conn.status, JSON.stringify(conn.body)).to.equal(201);
  sim.setWebhookHeaders(key, { 'x-pix-webhook-secret': WEBHOOK_SECRET });
  return acc.body as { id: string };
}

export const putConnection = (t: TestTenant, accountHash: string, body: Record<string, unknown>, headers = t.headers()) =>
  api().put(`/api/collection/pix/connections/${accountHash}`).set(headers).send(body);
export const createCharge = (t: TestTenant, receivableHash: string, body: Record<string, unknown>, headers = t.headers()) =>
  api().post(`/api/receivables/${receivableHash}/pix`).set(headers).send(body);
export const chargeOf = (t: TestTenant, chargeHash: string, headers = t.headers()) =>
  api().get(`/api/collection/pix/charges/${chargeHash}`).set(headers);
export const webhook = (accountHash: string, pix: unknown[], secret: string | null = WEBHOOK_SECRET) => {
  const req = api().post(`/api/webhooks/pix/${accountHash}/pix`);
  if (secret !== null) req.set('x-pix-webhook-secret', secret);
  return req.send({ pix });
};
export const refund = (t: TestTenant, paymentHash: string, body: Record<string, unknown>, headers = t.headers()) =>
  api().post(`/api/collection/pix/payments/${paymentHash}/refund`).set(headers).send(body);

export const paymentsOf = (t: TestTenant) =>
  dataSource.manager.find(PixPayment, { where: { companyId: t.companyId }, order: { id: 'ASC' } });
export const chargeRow = (hash: string) => dataSource.manager.findOneByOrFail(PixCharge, { id: decodeId('pix-charge', hash) });
export const refundsOf = (paymentId: number) => dataSource.manager.find(PixRefund, { where: { paymentId }, order: { id: 'ASC' } });

export { startPspSimulator };
