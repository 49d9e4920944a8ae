/*
 * The payables module's front door (SPEC §9): the payables of an entry document or a CT-e, the
 * deductions of a return to the supplier, the port it declares and the rows other modules read.
 * Everything else in src/modules/payables is private (docs/architecture.md, "Module seams").
 */
export {
  deductSupplierReturn,
  previewSupplierReturnDeduction,
  restoreSupplierReturn,
  supplierReturnSettlement,
} from './deductions.service';
export { PayableDeduction } from './entities/payable-deduction.entity';
export { Payable } from './entities/payable.entity';
export { SupplierCredit } from './entities/supplier-credit.entity';
export { toPayableDto } from './payables.mapper';
export { entryDocumentAccess } from './payables.ports';
export { Payable as PayableResponse } from './payables.responses';
export { payableRoutes } from './payables.router';
export {
  cancelCtePayables,
  cancelDocumentPayables,
  createCtePayables,
  createDocumentPayables,
  ctePayables,
  documentPayables,
} from './payables.service';
