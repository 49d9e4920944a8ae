import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { UpstreamError } from '../../core/errors';
import type { NfeInbound } from '../inbound-nfe';
import {
  AuthorityAnswer,
  documentDigest,
  findByKeyInFilial,
  findFilialInbound,
  findInboundByKey,
  governingFilial,
  recordAuthorityCheck,
} from '../inbound-nfe';
import { authorityAnswerError, AuthorityClient, NoAnswerError, ufOfCode } from '../authority';
import { issuerTarget, loadCredentials, tpAmbOf } from '../sefaz';

/*
 * An NF-e XML uploaded by hand is checked by consulting its key (NFeConsultaProtocolo4, the issuer's
 * situation service, at the authorizer of the key's UF) before its entry document can be confirmed
 * (SPEC §2; inbound-nfe/upload-trust.ts). The answer is kept on the inbound record: CONFIRMED only when the
 * authority says "authorized" and its protocol's digVal is this document's DigestValue — a forged
 * protNFe, or another version of the document, is caught here. An inbound route, it lives on the inbound
 * side with the DF-e routes; the filial's A1 opens the mutual TLS as for its own documents.
 */

const CANCELLED = new Set(['101', '151', '135', '155']);
const DENIED = new Set(['110', '205', '301', '302', '303']);

export interface ConsultationResult {
  inbound: NfeInbound;
  answer: AuthorityAnswer;
}

function outcomeOf(inbound: NfeInbound, s: Awaited<ReturnType<AuthorityClient['situation']>>): AuthorityAnswer | null {
  const protocol = s.protocol?.protocol ?? null;
  const base = { cStat: s.cStat, xMotivo: s.xMotivo, protocol };
  if (CANCELLED.has(s.cStat)) return { outcome: 'CANCELLED', ...base };
  if (DENIED.has(s.cStat) || (s.protocol && DENIED.has(s.protocol.cStat))) return { outcome: 'DENIED', ...base };
  if (s.cStat === '100' || s.cStat === '150') {
    const digest = documentDigest(inbound);
    return { outcome: digest && s.protocol?.digest === digest ? 'CONFIRMED' : 'DIGEST_MISMATCH', ...base };
  }
  if (s.cStat === '217') return { outcome: 'NOT_FOUND', ...base };
  return null;
}

/** The filial as seen from another UF's authorizer (a copy: the loaded entity stays as it is). */
const withUf = <T extends object>(filial: T, uf: string): T =>
  Object.assign(Object.create(Object.getPrototypeOf(filial) as object) as T, filial, { uf });

/** `consultar-protocolo`: consults the key of a record of the filial and records what the authority said. */
export async function consultInboundKey(ctx: TenantContext, ref: { accessKey?: string; inboundId?: number }): Promise<ConsultationResult> {
  const filial = await governingFilial(ctx);
  const inbound =
    ref.inboundId !== undefined
      ? await findFilialInbound(readerOf(ctx), ctx, ref.inboundId, filial.id)
      : await findByKeyInFilial(readerOf(ctx), ctx, filial.id, ref.accessKey!);
  const credentials = await loadCredentials(filial);
  // The key's own UF answers for it (an issuer in another state is not known to the filial's authorizer).
  const uf = ufOfCode(inbound.accessKey.slice(0, 2)) ?? filial.uf;
  const client = new AuthorityClient({ issuer: await issuerTarget(withUf(filial, uf), null), credentials, tpAmb: tpAmbOf(filial) });
  let reply: Awaited<ReturnType<AuthorityClient['situation']>>;
  try {
    reply = await client.situation(inbound.accessKey);
  } catch (err) {
    if (err instanceof NoAnswerError) {
      throw new UpstreamError(
        err.timeout ? 'upstream_timeout' : 'upstream_unavailable',
        err.timeout ? 'SEFAZ_TIMEOUT' : 'SEFAZ_UNAVAILABLE',
        `The authority did not answer the consultation: ${err.message}`,
      );
    }
    throw err;
  }
  const answer = outcomeOf(inbound, reply);
  if (!answer) throw authorityAnswerError(reply.cStat, reply.xMotivo, 'Consultation of the key');
  const updated = await inTransaction(ctx, async (em) => {
    const current = (await findInboundByKey(em, ctx.companyId, inbound.filialId, inbound.accessKey, true))!;
    return recordAuthorityCheck(em, ctx, current, answer);
  });
  return { inbound: updated, answer };
}
