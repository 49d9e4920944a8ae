import { BusinessRuleError } from '../../core/errors';
import type { ComputeFiscalDocument } from '../fiscal/fiscal-document';

/*
 * The tax engine the emission path computes with (SPEC §12.1, modules/fiscal). Emission never
 * computes a tax itself: it maps the engine's ComputedFiscalDocument to the layout.
 */
let engine: ComputeFiscalDocument | null = null;

export function provideFiscalEngine(fn: ComputeFiscalDocument | null): void {
  engine = fn;
}

export const computeFiscal: ComputeFiscalDocument = (ctx, request, em) => {
  if (!engine) throw new BusinessRuleError('FISCAL_ENGINE_UNAVAILABLE', 'The tax engine is not available in this build');
  return engine(ctx, request, em);
};
