import type { EntityManager, EntityTarget } from 'typeorm';
import type { Changes } from '../../core/audit/audit.service';
import type { Dec } from '../../core/decimal';
import type { ResourceType } from '../../core/hashids';
import type { StateMachine } from '../../core/state-machine';
import type { OpenItemSettlement } from './entities/settlement.entity';

/** What the kernel reads of an item still to settle (a payable, a receivable). */
export interface OpenItem<S extends string> {
  id: number;
  filialId: number;
  status: S;
  version: number;
}

/** The statuses a side gives to "nothing settled", "some settled", "all settled"; and, where it has one, to "nothing owed and nothing settled". */
export interface OpenItemStatuses<S extends string> {
  open: S;
  partial: S;
  settled: S;
  /** A receivable credited in full by returns is CANCELLED; a payable has no such status (it stays OPEN). */
  nothingOwed?: S;
}

/**
 * What payables and receivables each declare so the open-items kernel can settle and reverse for them
 * (docs/decisions/open-items.md): names and codes, table and columns, statuses and actions, audit kinds
 * and events, and the few reads and writes of the item that only the side knows.
 */
export interface OpenItemSide<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement> {
  /** Lower-case nouns of the messages ('payable', 'payment'); resources and codes derive from them (Payment, PAYMENT_EXCEEDS_BALANCE). */
  names: { item: string; settlement: string };
  /** Hashid resource types of the item and of its settlements. */
  ids: { item: ResourceType; settlement: ResourceType };
  /** The settlement's entity (its table) and the columns that name its item and its date. */
  settlementEntity: EntityTarget<R>;
  columns: { item: keyof R & string; date: keyof R & string };
  statuses: OpenItemStatuses<S>;
  /** The actions of the side's state table that settle and that reverse. */
  actions: { settle: A; reverse: A };
  machine: Pick<StateMachine<S, A, Pick<I, 'status'>>, 'assertAllowed' | 'assertTransition'>;
  /** Audit kinds (entity names) and actions; `*Ref` is the key naming the settlement on the item's audit row. */
  audit: { item: string; settlement: string; settled: string; reversed: string; settledRef: string; reversedRef: string };
  /** Event types; `key` names the settlement inside the event payload. */
  events: { settled: (item: I) => string; reversed: string; key: string };
  /** Reads the item of the company, locked for the transaction when `lock` (MySQL). */
  findItem: (em: EntityManager, companyId: number, id: number, lock: boolean) => Promise<I | null>;
  /** What the item owes, what settlements paid of it, what returns/credits took off it. */
  balance: (item: I) => { amount: Dec; settled: Dec; credited: Dec };
  /** Conditional UPDATE of the item from the status and version read (bumping the version); false when it changed. */
  updateIf: (em: EntityManager, companyId: number, before: I, values: { settled: Dec; credited: Dec; status: S }) => Promise<boolean>;
  /** The audit changes of the item between two reads. */
  itemChanges: (before: I, after: I) => Changes;
  /** Event payloads (hashids only, money as JSON numbers). */
  itemData: (item: I) => Record<string, unknown>;
  settlementData: (settlement: R) => Record<string, unknown>;
}

/**
 * The status that what is settled and credited of `amount` means: something open → open or partial;
 * nothing open → settled when something was settled, else the side's "nothing owed" (or open).
 */
export function settledStatus<S extends string>(statuses: OpenItemStatuses<S>, amount: Dec, settled: Dec, credited: Dec): S {
  const open = amount.minus(settled).minus(credited);
  if (open.gt(0)) return settled.gt(0) ? statuses.partial : statuses.open;
  return settled.gt(0) ? statuses.settled : (statuses.nothingOwed ?? statuses.open);
}
