/*
 * A local bank for collection (development, the demo and the tests; not a production module: it
 * lives in src/dev and nothing in src/modules imports it). It reads the remessas an account sends and
 * answers retornos as a bank's collection system would: entrada confirmada (02) for each title, or a
 * rejeição (03) with reasons for the titles it is told to refuse; baixa (09) for a write-off
 * instruction, vencimento alterado (14), protesto (19); liquidações (06) with the interest and fine
 * the remessa asked for when paid late, partial payments, payments after a write-off (17); and, on
 * demand, a file repeated or overlapping the previous one, as real banks sometimes send. It speaks
 * the account's layout (CNAB 240, or the bank's CNAB 400): the codes here are FEBRABAN's, and the
 * layout's writer puts them in the bank's own.
 */
import { Dec } from '../../core/decimal';
import { addCalendarDays } from '../../core/business-date';
import { CnabAccount, cnabLayout, CnabLayout, RetornoOccurrence } from '../../modules/collection';

type Occurrence = Omit<RetornoOccurrence, 'line'>;

interface SimTitle {
  nossoNumero: string;
  nossoNumeroDv: string;
  documentNumber: string;
  companyRef: string;
  dueDate: string;
  amount: Dec;
  interestPerDay: Dec;
  finePercent: Dec;
  discountAmount: Dec;
  status: 'OPEN' | 'REFUSED' | 'WRITTEN_OFF' | 'PAID';
  paid: Dec;
}

const DAY = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);

export interface PaymentOrder {
  /** The payment date (data de ocorrência). */
  date: string;
  /** What the payer paid; default the title's value plus what is due for paying late. */
  paidAmount?: Dec;
  /** The bank's fee (default 2.50). */
  bankFee?: Dec;
  /** Days until the money is credited (default 1). */
  creditDays?: number;
}

export class BankSimulator {
  readonly titles = new Map<string, SimTitle>();
  private queue: Occurrence[] = [];
  private last: Occurrence[] = [];
  private fileNumber = 0;
  private rejections = new Map<string, string[]>();
  readonly remessas: number[] = [];

  private readonly layout: ReturnType<typeof cnabLayout>;

  constructor(
    readonly account: CnabAccount,
    layout: CnabLayout = 'CNAB240',
  ) {
    this.layout = cnabLayout(layout, account.bankCode);
  }

  /** The next entrada of this nosso número is refused with these reasons (e.g. ['08'] nosso número inválido). */
  refuse(nossoNumero: string, reasons: string[]): void {
    this.rejections.set(nossoNumero, reasons);
  }

  /** Reads a remessa (throws on a malformed one, as a bank's validator does) and queues the answers. */
  receiveRemessa(content: string, today: string): void {
    const file = this.layout.parseRemessa(content);
    if (file.bankCode !== this.account.bankCode) throw new Error(`remessa of bank ${file.bankCode} sent to ${this.account.bankCode}`);
    if (this.remessas.includes(file.fileNumber)) throw new Error(`remessa ${file.fileNumber} was already received`);
    this.remessas.push(file.fileNumber);
    for (const t of file.titles) {
      const known = this.titles.get(t.nossoNumero);
      if (t.movement === '01') {
        const reasons = this.rejections.get(t.nossoNumero);
        const title: SimTitle = { ...t, status: reasons ? 'REFUSED' : 'OPEN', paid: new Dec(0) };
        this.titles.set(t.nossoNumero, title);
        this.queue.push(this.occurrence(title, reasons ? '03' : '02', today, { reasons: reasons ?? [] }));
        continue;
      }
      if (!known) continue;
      if (t.movement === '02') {
        known.status = 'WRITTEN_OFF';
        this.queue.push(this.occurrence(known, '09', today));
      } else if (t.movement === '06') {
        known.dueDate = t.dueDate;
        this.queue.push(this.occurrence(known, '14', today));
      } else if (t.movement === '09') {
        this.queue.push(this.occurrence(known, '19', today));
      }
    }
  }

  /** A payment of a title: 06 (17 after a write-off), with interest and fine when late. */
  pay(nossoNumero: string, order: PaymentOrder): Occurrence {
    const t = this.titles.get(nossoNumero);
    if (!t) throw new Error(`unknown title ${nossoNumero}`);
    const late = Math.max(0, daysBetween(t.dueDate, order.date));
    const fine = late > 0 ? t.amount.times(t.finePercent).div(100).toDecimalPlaces(2) : new Dec(0);
    const interest = t.interestPerDay.times(late);
    const charges = fine.plus(interest);
    const paidAmount = order.paidAmount ?? t.amount.minus(t.paid).plus(charges);
    const o = this.occurrence(t, t.status === 'WRITTEN_OFF' ? '17' : '06', order.date, {
      charges: order.paidAmount ? new Dec(0) : charges,
      paidAmount,
      bankFee: order.bankFee ?? new Dec('2.50'),
      creditedAmount: paidAmount.minus(order.bankFee ?? new Dec('2.50')),
      creditDate: addCalendarDays(order.date, order.creditDays ?? 1),
    });
    t.paid = t.paid.plus(paidAmount);
    if (t.status === 'OPEN' && t.paid.gte(t.amount)) t.status = 'PAID';
    this.queue.push(o);
    return o;
  }

  /** The bank writes a title off by itself (prazo de baixa). */
  writeOff(nossoNumero: string, date: string): void {
    const t = this.titles.get(nossoNumero)!;
    t.status = 'WRITTEN_OFF';
    this.queue.push(this.occurrence(t, '09', date));
  }

  /**
   * The next retorno: what is queued; `repeatPrevious` puts the previous file's occurrences in again
   * (an overlapping file), `duplicateWithin` repeats this file's own occurrences inside it.
   */
  retorno(at: Date, opts: { repeatPrevious?: boolean; duplicateWithin?: boolean } = {}): string {
    const fresh = this.queue;
    this.queue = [];
    const occurrences = [...(opts.repeatPrevious ? this.last : []), ...fresh, ...(opts.duplicateWithin ? fresh : [])];
    this.last = fresh;
    return this.layout.writeRetorno(this.account, ++this.fileNumber, at, occurrences);
  }

  private occurrence(t: SimTitle, code: string, date: string, over: Partial<Occurrence> = {}): Occurrence {
    return {
      code,
      nossoNumero: t.nossoNumero,
      nossoNumeroDv: t.nossoNumeroDv,
      documentNumber: t.documentNumber,
      companyRef: t.companyRef,
      dueDate: t.dueDate,
      titleAmount: t.amount,
      bankFee: new Dec(0),
      reasons: [],
      charges: new Dec(0),
      discount: new Dec(0),
      rebate: new Dec(0),
      paidAmount: new Dec(0),
      creditedAmount: new Dec(0),
      occurrenceDate: date,
      creditDate: null,
      ...over,
    };
  }
}
