import type { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { ConflictError } from '../../core/errors';
import type { Check } from '../entry-document';
import { Filial } from '../tenancy';
import type { AuthorityCheck, NfeInbound } from './entities/nfe-inbound.entity';
import { AUDIT_ENTITY } from './nfe-inbound.service';
import { findInbound, findInboundByKey, insertInboundEvent, updateInbound } from './nfe-inbound.repository';
import type { SignerReason, SignerVerdict } from '../fiscal-xml';
import { SIGNER_CODES } from './xml/validation-report';

/*
 * What stands between an inbound NF-e and its confirmation besides its figures (SPEC §2, issue 34
 * item 8; docs/decisions/signer-trust.md):
 *   - the signer: the SIGNER check of the report kept when the XML was stored. UNTRUSTED blocks
 *     (NFE_SIGNER_UNTRUSTED, naming why); UNVERIFIABLE (no roots installed, or the issuing AC not among
 *     them) is a warning — the authority's word below is what vouches for such a document;
 *   - an XML uploaded by hand: its key consulted at the authority (NFeConsultaProtocolo4) answered
 *     "authorized" with this document's digest. Until then NFE_AUTHORITY_UNVERIFIED blocks, except in a
 *     HOMOLOGATION filial that allows unverified uploads (a warning there). Documents the DF-e
 *     distribution delivered came from the authority itself.
 */

export interface SignerView {
  verdict: SignerVerdict;
  reasons: SignerReason[];
  signerDocument: string | null;
  message: string;
}

/** The signer's verdict as the stored report has it (null: stored before signers were judged, or the signature did not verify). */
export function signerOf(inbound: Pick<NfeInbound, 'validation'>): SignerView | null {
  const c = inbound.validation?.checks.find((x) => x.check === 'SIGNER');
  if (!c || c.outcome === 'SKIPPED' || !c.details) return null;
  const d = c.details as { verdict: SignerVerdict; reasons: SignerReason[]; signerDocument: string | null };
  return { verdict: d.verdict, reasons: d.reasons, signerDocument: d.signerDocument, message: c.message };
}

/** The signature's DigestValue (kept by the report's protocol-digest check): what the authority's digVal must equal. */
export function documentDigest(inbound: Pick<NfeInbound, 'validation'>): string | null {
  const c = inbound.validation?.checks.find((x) => x.check === 'PROTOCOL_DIGEST');
  return (c?.details?.digestValue as string | undefined) ?? null;
}

const AUTHORITY_MESSAGES: Record<AuthorityCheck | 'NONE', string> = {
  NONE: 'its key was never consulted at the authority',
  CONFIRMED: '',
  NOT_FOUND: 'the authority does not know its key',
  CANCELLED: 'the authority says it was cancelled',
  DENIED: 'the authority says its use was denied',
  DIGEST_MISMATCH: 'the authority authorized another version of this document (digVal differs)',
};

/** The checks the entry document's confirmation adds for the inbound NF-e of `accessKey` (none for a manual document). */
export async function confirmationChecks(em: EntityManager, companyId: number, filialId: number, accessKey: string): Promise<Check[]> {
  const inbound = await findInboundByKey(em, companyId, filialId, accessKey);
  if (!inbound) return [];
  const out: Check[] = [];
  const signer = signerOf(inbound);
  if (signer && signer.verdict !== 'TRUSTED') {
    const code = signer.verdict === 'UNTRUSTED' ? SIGNER_CODES.UNTRUSTED : SIGNER_CODES.UNVERIFIABLE;
    out.push({
      code,
      message: signer.message,
      blocksConfirmation: signer.verdict === 'UNTRUSTED',
      details: { verdict: signer.verdict, reasons: signer.reasons, signerDocument: signer.signerDocument },
    });
  }
  if (inbound.source === 'UPLOAD' && inbound.authorityCheck !== 'CONFIRMED') {
    const filial = await em.findOneByOrFail(Filial, { id: filialId, companyId });
    const allowed = filial.allowUnverifiedUploads && filial.nfeEnvironment === 'HOMOLOGATION';
    out.push({
      code: 'NFE_AUTHORITY_UNVERIFIED',
      message: `The NF-e was uploaded by hand and ${AUTHORITY_MESSAGES[inbound.authorityCheck ?? 'NONE']}${allowed ? ' (allowed: homologation filial with unverified uploads on)' : '; consult it (POST /api/entry-document/nfe/consultar-protocolo) before confirming'}`,
      blocksConfirmation: !allowed,
      details: { accessKey, authorityCheck: inbound.authorityCheck, cStat: inbound.authorityCheckCStat },
    });
  }
  return out;
}

export interface AuthorityAnswer {
  outcome: AuthorityCheck;
  cStat: string;
  xMotivo: string;
  protocol: string | null;
}

/** Keeps the consultation's outcome on the record, with its event and audit row, in the caller's transaction. */
export async function recordAuthorityCheck(
  em: EntityManager,
  ctx: ActorContext,
  inbound: NfeInbound,
  answer: AuthorityAnswer,
): Promise<NfeInbound> {
  const values: Partial<NfeInbound> = {
    authorityCheck: answer.outcome,
    authorityCheckCStat: answer.cStat.slice(0, 3),
    authorityCheckedAt: new Date(),
  };
  if (answer.outcome === 'CANCELLED') values.authorityStatus = 'CANCELLED';
  if (!(await updateInbound(em, ctx.companyId, inbound.id, inbound.version, values))) {
    throw new ConflictError('CONCURRENT_UPDATE', 'The inbound NF-e changed while its key was consulted; retry', { retryable: true });
  }
  await insertInboundEvent(em, {
    companyId: ctx.companyId,
    filialId: inbound.filialId,
    inboundId: inbound.id,
    type: 'AUTHORITY_CHECKED',
    eventCode: null,
    sequence: null,
    protocol: answer.protocol,
    description: `NFeConsultaProtocolo4: ${answer.cStat} ${answer.xMotivo} → ${answer.outcome}`,
    actor: ctx.actor,
    occurredAt: new Date(),
    data: { outcome: answer.outcome, cStat: answer.cStat },
  });
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: inbound.id,
    action: 'AUTHORITY_CHECKED',
    changes: { authorityCheck: [inbound.authorityCheck, answer.outcome] },
  });
  return (await findInbound(em, ctx.companyId, inbound.id))!;
}
