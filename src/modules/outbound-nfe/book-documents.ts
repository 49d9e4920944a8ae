import { EntityManager, In, Between } from 'typeorm';
import { InvoiceNumberVoid } from './entities/invoice-number-void.entity';
import { OutboundNfe, OutboundNfeSource, OutboundNfeStatus } from './entities/outbound-nfe.entity';
import { gunzipText } from './invoice-store';

/* The NF-e (55) a filial issued in a span, for the fiscal books and the EFD: what was issued, as issued (its XML). */

export interface IssuedNfeOfPeriod {
  invoiceId: number;
  accessKey: string;
  series: number;
  number: number;
  status: OutboundNfeStatus;
  source: OutboundNfeSource;
  issuedAt: Date;
  customerId: number | null;
  /** The signed NFe as issued (the nfeProc once authorized). */
  xml: string;
}

/** Documents that are part of the books: authorized, cancelled (COD_SIT 02) and denied (04). Not yet answered ones are not. */
const BOOKED: OutboundNfeStatus[] = ['AUTHORIZED', 'CANCELLED', 'DENIED'];

export async function issuedNfeOfPeriod(
  em: EntityManager,
  companyId: number,
  filialId: number,
  from: Date,
  to: Date,
): Promise<IssuedNfeOfPeriod[]> {
  const rows = await em.find(OutboundNfe, {
    where: { companyId, filialId, model: 55, status: In(BOOKED), issuedAt: Between(from, to) },
    order: { series: 'ASC', number: 'ASC' },
  });
  return rows
    .filter((r) => r.issuedAt < to)
    .map((r) => ({
      invoiceId: r.id,
      accessKey: r.accessKey,
      series: r.series,
      number: r.number,
      status: r.status,
      source: r.source,
      issuedAt: r.issuedAt,
      customerId: r.customerId,
      xml: gunzipText(r.procXmlGz ?? r.signedXmlGz),
    }));
}

export interface VoidedRangeOfPeriod {
  model: number;
  series: number;
  firstNumber: number;
  lastNumber: number;
  voidedAt: Date;
  protocol: string | null;
}

/** Number ranges the authority voided (inutilização) in the span, models 55 and 65. */
export async function voidedRangesOfPeriod(
  em: EntityManager,
  companyId: number,
  filialId: number,
  from: Date,
  to: Date,
): Promise<VoidedRangeOfPeriod[]> {
  const rows = await em.find(InvoiceNumberVoid, {
    where: { companyId, filialId, status: 'VOIDED', voidedAt: Between(from, to) },
    order: { model: 'ASC', series: 'ASC', firstNumber: 'ASC' },
  });
  return rows
    .filter((r) => r.voidedAt! < to)
    .map((r) => ({
      model: r.model,
      series: r.series,
      firstNumber: r.firstNumber,
      lastNumber: r.lastNumber,
      voidedAt: r.voidedAt!,
      protocol: r.protocol,
    }));
}
