import { Counter } from 'prom-client';
import { EntityManager } from 'typeorm';
import { registry } from '../metrics/registry';
import type { ActorContext } from '../context';
import { config } from '../config';
import { Dec } from '../decimal';
import { deferInsertRows, TenantRow } from '../db/sql';
import { appendOnCommit } from '../db/transaction';
import { OutboxEvent } from './outbox-event.entity';

export interface DomainEvent {
  type: string;
  filialId?: number | null;
  aggregateType: string;
  aggregateId: number;
  /** Public payload: hashids only, never internal ids. */
  data: Record<string, unknown>;
}

/**
 * Event payloads carry money and quantities as JSON numbers, like the REST bodies (SPEC §0). A Dec
 * left in a payload becomes its number here; a decimal written as a string ("318.00") is a builder's
 * mistake, which the test suite collects (payloadProblems) and fails on, whatever module publishes it.
 */
const DECIMAL_STRING = /^-?\d+\.\d+$/;

// Members' paths are only spelled out when the problems are collected (tests); every event of a hot
// transaction goes through here, so the production walk builds no path strings and no entry arrays.
function normalize(value: unknown, path: string, problems: string[] | null): unknown {
  if (typeof value === 'string') {
    if (problems && DECIMAL_STRING.test(value)) problems.push(`${path}: "${value}"`);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Dec) return value.toNumber();
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = normalize(value[i], problems ? `${path}[${i}]` : '', problems);
    return out;
  }
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = normalize((value as Record<string, unknown>)[k], problems ? (path ? `${path}.${k}` : k) : '', problems);
    // An own member named __proto__ stays a member (as Object.fromEntries made it), not the prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

const recorded: string[] = [];
/** Test mode: every payload member written as a decimal string, by event type (tests/hooks.ts fails on any). */
export const payloadProblems = (): readonly string[] => recorded;

/** A payload as stored and delivered (Dec → number), and its members written as decimal strings. */
export function inspectPayload(data: Record<string, unknown>): { payload: Record<string, unknown>; decimalStrings: string[] } {
  const decimalStrings: string[] = [];
  return { payload: normalize(data, '', decimalStrings) as Record<string, unknown>, decimalStrings };
}

function eventPayload(type: string, data: Record<string, unknown>): Record<string, unknown> {
  if (!config.isTest) return normalize(data, '', null) as Record<string, unknown>;
  const { payload, decimalStrings } = inspectPayload(data);
  recorded.push(...decimalStrings.map((p) => `${type} ${p}`));
  return payload;
}

export async function publishEvent(em: EntityManager, ctx: ActorContext, event: DomainEvent): Promise<void> {
  // Written with the transaction's other events just before it commits, in the order published.
  await appendOnCommit(em, insertEvents, {
    companyId: ctx.companyId,
    filialId: event.filialId ?? null,
    type: event.type,
    aggregateType: event.aggregateType,
    aggregateId: event.aggregateId,
    data: eventPayload(event.type, event.data),
  });
}

/** Business activity in /metrics: every domain event written, by type (sales, documents confirmed, payments…). */
const domainEvents = new Counter({
  name: 'backoffice_domain_events_total',
  help: 'Domain events written with their transaction, by type (quick-sale.completed, sales-order.fulfilled, entry-document.confirmed…); a transaction retried after a deadlock counts again',
  labelNames: ['type'],
  registers: [registry],
});

async function insertEvents(em: EntityManager, rows: TenantRow<OutboxEvent>[]): Promise<void> {
  await deferInsertRows(em, OutboxEvent, rows);
  for (const r of rows) domainEvents.labels(String(r.type)).inc();
}
