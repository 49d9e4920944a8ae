import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { ResourceType } from '../../core/hashids';
import type { SpedFile } from './entities/sped-file.entity';
import { traceDocKind, TraceAnswer } from './sped.service';

export function toSpedFileDto(f: SpedFile) {
  const findings = f.findings ?? [];
  return {
    id: encodeId('sped-file', f.id),
    filialId: encodeId('filial', f.filialId),
    period: f.period,
    finalidade: f.finalidade,
    perfil: f.perfil,
    inventoryCountId: encodeOptionalId('inventory-count', f.inventoryCountId),
    status: f.status,
    layoutVersion: f.layoutVersion,
    lineCount: f.lineCount,
    sha256: f.sha256,
    findings: findings.map((x) => ({
      severity: x.severity,
      code: x.code,
      message: x.message,
      ...(x.register ? { register: x.register } : {}),
      ...(x.line ? { line: x.line } : {}),
    })),
    blocking: findings.filter((x) => x.severity === 'BLOCKING').length,
    warnings: findings.filter((x) => x.severity === 'WARNING').length,
    error: f.error,
    requestedBy: f.requestedBy,
    finishedAt: f.finishedAt ? f.finishedAt.toISOString() : null,
    createdAt: f.createdAt.toISOString(),
  };
}

export function toTraceDto(t: TraceAnswer) {
  return {
    fileId: encodeId('sped-file', t.file.id),
    line: t.line,
    register: t.register,
    fields: t.fields,
    sources: t.sources.map((s) => {
      const kind = traceDocKind(s.ref) as ResourceType | null;
      return {
        ref: s.ref,
        document: s.doc
          ? {
              kind: s.doc.kind,
              id: kind && s.doc.id ? encodeId(kind, s.doc.id) : null,
              model: s.doc.model,
              series: s.doc.series,
              number: s.doc.number,
              accessKey: s.doc.accessKey,
              situation: s.doc.situation,
            }
          : null,
        lineNumber: s.lineNumber,
        item: s.item,
      };
    }),
    derivedFrom: t.derivedFrom,
  };
}
