import type { EntityManager } from 'typeorm';
import { ACCESS_KEY_PATTERN } from '../../../core/br-documents';
import type { ActorContext } from '../../../core/context';
import { AppError } from '../../../core/errors';
import type { Filial } from '../../tenancy';
import { findInboundByKey } from '../nfe-inbound.repository';
import { recipientOf, upsertInbound } from '../nfe-inbound.service';
import { inspectNfeXml } from '../xml/inspect';

/*
 * What a batch does with each kind of document, by the XML's root element. The NF-e module handles
 * nfeProc (and a bare NFe); other modules plug theirs in with `registerBatchHandler` at the
 * composition root (src/modules/index.ts): the tax-authority module the NF-e events (cancellation,
 * CC-e, manifestations), the CT-e module its cteProc. CT-e events are reported INVALID with
 * CTE_NOT_SUPPORTED rather than lumped with unknown files.
 */

export type BatchFileOutcome = 'STAGED' | 'DUPLICATE' | 'INVALID';

export interface BatchOutcome {
  status: BatchFileOutcome;
  accessKey: string | null;
  inboundId: number | null;
  /** The CT-e record a CT-e file was staged as (or found as). */
  cteId?: number | null;
  problemCode: string | null;
  message: string;
}

/** A document read and checked outside any transaction; `apply` writes it inside the file's transaction. */
export interface PreparedBatchDocument {
  accessKey: string | null;
  apply(em: EntityManager, ctx: ActorContext): Promise<BatchOutcome>;
}

export interface BatchDocumentHandler {
  /** Stored on the file row: NFE, EVENT, CTE… */
  kind: string;
  /** Root element local names it takes. */
  roots: string[];
  /** Lower phases run first (an event needs its NF-e, possibly from the same batch). */
  phase: number;
  /** Parse and check (signatures, recipient, protocol); an INVALID outcome when it cannot be staged. */
  prepare(xml: string, filial: Filial): Promise<PreparedBatchDocument | BatchOutcome>;
}

export const invalid = (problemCode: string, message: string, accessKey: string | null = null): BatchOutcome => ({
  status: 'INVALID',
  accessKey,
  inboundId: null,
  problemCode,
  message: message.slice(0, 500),
});

export const isOutcome = (x: PreparedBatchDocument | BatchOutcome): x is BatchOutcome => 'status' in x;

/** An error thrown while reading a document, as an INVALID outcome with its stable code. */
export function invalidFromError(err: unknown, fallbackCode: string): BatchOutcome {
  if (err instanceof AppError) return invalid(err.code, err.message);
  return invalid(fallbackCode, (err as Error).message ?? String(err));
}

/** nfeProc / NFe: validated like stage-xml, stored as the filial's record of its key (SOURCE UPLOAD). */
const nfeHandler: BatchDocumentHandler = {
  kind: 'NFE',
  roots: ['nfeProc', 'NFe'],
  phase: 0,
  async prepare(xml, filial) {
    let inspection;
    try {
      inspection = await inspectNfeXml(xml, recipientOf(filial));
    } catch (err) {
      return invalidFromError(err, 'NFE_XML_INVALID');
    }
    const key = inspection.nfe.accessKey;
    if (!inspection.report.valid) {
      const first = inspection.report.checks.find((c) => c.blocking)!;
      return invalid(first.code!, first.message, ACCESS_KEY_PATTERN.test(key) ? key : null);
    }
    return {
      accessKey: key,
      async apply(em, ctx) {
        // The key's XML already stored — from the feed, an upload or this batch — is a duplicate;
        // a record known only by its summary gets this XML.
        const existing = await findInboundByKey(em, ctx.companyId, filial.id, key, true);
        if (existing?.hasXml) {
          return {
            status: 'DUPLICATE',
            accessKey: key,
            inboundId: existing.id,
            problemCode: null,
            message: `Already stored (source ${existing.source})`,
          };
        }
        const { inbound } = await upsertInbound(em, ctx, filial.id, xml, inspection, 'UPLOAD');
        return {
          status: 'STAGED',
          accessKey: key,
          inboundId: inbound.id,
          problemCode: null,
          message: existing ? 'XML attached to the summary received from the tax authority' : 'Staged',
        };
      },
    };
  },
};

const handlers: BatchDocumentHandler[] = [nfeHandler];

/** Adds (or replaces, by kind) the handler of a document kind. */
export function registerBatchHandler(handler: BatchDocumentHandler): void {
  const at = handlers.findIndex((h) => h.kind === handler.kind);
  if (at >= 0) handlers[at] = handler;
  else handlers.push(handler);
}

/** Documents the service knows of but cannot take yet, reported with their own code. */
const NOT_YET: Record<string, { code: string; message: string }> = {
  procEventoCTe: { code: 'CTE_NOT_SUPPORTED', message: 'CT-e events are not handled by this service yet' },
};

const ROOT = /^(?:\uFEFF)?\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/;

/** The root element's local name, read from the text (null when the text does not start like XML). */
export function rootElementOf(xml: string): string | null {
  return ROOT.exec(xml.slice(0, 4096))?.[1] ?? null;
}

export type Classification = { handler: BatchDocumentHandler } | { outcome: BatchOutcome; kind: string | null };

export function classify(xml: string): Classification {
  const root = rootElementOf(xml);
  if (!root) return { outcome: invalid('BATCH_ENTRY_NOT_XML', 'The file is not an XML document'), kind: null };
  const handler = handlers.find((h) => h.roots.includes(root));
  if (handler) return { handler };
  const notYet = NOT_YET[root];
  if (notYet) return { outcome: invalid(notYet.code, notYet.message), kind: 'CTE' };
  return { outcome: invalid('BATCH_DOCUMENT_UNSUPPORTED', `Documents with root element ${root} are not taken by a batch`), kind: null };
}

export const handlerOfKind = (kind: string | null): BatchDocumentHandler | undefined => handlers.find((h) => h.kind === kind);
