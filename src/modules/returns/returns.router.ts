import { defineRoutes } from '../../core/http/route';
import * as c from './returns.controller';
import { INBOUND_NOT_FOUND, REPORT_BLOCKING, XML_READ } from '../inbound-nfe';
import { ReturnableItemPage, SalesReturn, SalesReturnPage } from './returns.responses';
import { returnSchemas as s } from './returns.schemas';

export const returnRoutes = defineRoutes([
  {
    method: 'get',
    path: '/returns/returnable-items/:filialId',
    tag: 'Returns',
    summary: "Lines of a customer's delivered sales that can still come back",
    scope: 'sales-order:read',
    schema: s.returnableItems,
    responses: { body: ReturnableItemPage, errors: { 404: ['CUSTOMER_NOT_FOUND'] } },
    handler: c.returnableItems,
  },
  {
    method: 'get',
    path: '/returns/list/:filialId',
    tag: 'Returns',
    summary: 'Returns of a filial',
    scope: 'sales-order:read',
    schema: s.list,
    responses: { body: SalesReturnPage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/returns/detail/:id',
    tag: 'Returns',
    summary: 'One return',
    scope: 'sales-order:read',
    schema: s.detail,
    responses: { body: SalesReturn, errors: { 404: ['RETURN_NOT_FOUND'] } },
    handler: c.detail,
  },
  {
    method: 'post',
    path: '/returns/:filialId/imported-nfe',
    tag: 'Returns',
    summary:
      "Book a contributor customer's own NF-e de devolução (finNFe 4, refNFe to our sale) as a return of that sale: restock, receivables credited, credits taken, no payable",
    scope: 'returns:write',
    schema: s.importNfe,
    idempotent: true,
    status: 201,
    responses: {
      body: SalesReturn,
      errors: {
        400: [...XML_READ],
        404: ['REFERENCED_SALE_NOT_FOUND', ...INBOUND_NOT_FOUND],
        409: ['FISCAL_PERIOD_CLOSED', 'RETURN_ALREADY_IMPORTED'],
        422: [
          ...REPORT_BLOCKING,
          'NFE_XML_NOT_AVAILABLE',
          'NOT_A_RETURN',
          'RETURN_LINES_UNMATCHED',
          'RETURN_ISSUER_NOT_THE_CUSTOMER',
          'RETURN_QUANTITY_EXCEEDS_RETURNABLE',
          'REFUND_METHOD_INVALID',
        ],
      },
    },
    handler: c.importNfe,
  },
  {
    method: 'post',
    path: '/returns/:id/document',
    tag: 'Returns',
    summary: 'Issue (again) our NF-e de devolução of a return (after a failure or a cancellation)',
    scope: 'returns:write',
    schema: s.issueDocument,
    // Calls the authority between its own transactions (SPEC §12.2); a retry resumes the document by its key.
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: SalesReturn,
      errors: {
        404: ['RETURN_NOT_FOUND'],
        409: ['FISCAL_PERIOD_CLOSED', 'ALREADY_INVOICED', 'RETURN_ORIGIN_PENDING'],
        422: ['RETURN_WITHOUT_FISCAL_DOCUMENT', 'RETURN_DOCUMENT_BY_CUSTOMER', 'ORIGINAL_NOT_AUTHORIZED', 'RETURN_NOT_POSSIBLE'],
      },
    },
    handler: c.issueDocument,
  },
  {
    method: 'post',
    path: '/returns/:filialId',
    tag: 'Returns',
    summary: 'Register a return (restock, refund, returned quantities)',
    scope: 'returns:write',
    schema: s.register,
    // The booking commits, then the devolução goes to the authority (SPEC §12.2); the return keeps the
    // request's key, so a retry after a crash finds it and resumes its document.
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: SalesReturn,
      errors: {
        409: ['FISCAL_PERIOD_CLOSED'],
        404: ['CUSTOMER_NOT_FOUND', 'SALES_ORDER_ITEM_NOT_FOUND'],
        422: ['REFUND_METHOD_INVALID', 'RETURN_QUANTITY_EXCEEDS_RETURNABLE'],
      },
    },
    handler: c.register,
  },
]);
