import { defineRoutes } from '../../core/http/route';
import * as c from './returns.controller';
import { ReturnableItemPage, SalesReturn, SalesReturnPage } from './returns.responses';
import { returnSchemas as s } from './returns.schemas';

export const returnRoutes = defineRoutes([
  { method: 'get', path: '/returns/returnable-items/:filialId', tag: 'Returns', summary: "Lines of a customer's delivered sales that can still come back", scope: 'sales-order:read', schema: s.returnableItems, responses: { body: ReturnableItemPage, errors: { 404: ['CUSTOMER_NOT_FOUND'] } }, handler: c.returnableItems },
  { method: 'get', path: '/returns/list/:filialId', tag: 'Returns', summary: 'Returns of a filial', scope: 'sales-order:read', schema: s.list, responses: { body: SalesReturnPage }, handler: c.list },
  { method: 'get', path: '/returns/detail/:id', tag: 'Returns', summary: 'One return', scope: 'sales-order:read', schema: s.detail, responses: { body: SalesReturn, errors: { 404: ['RETURN_NOT_FOUND'] } }, handler: c.detail },
  { method: 'post', path: '/returns/:id/document', tag: 'Returns', summary: 'Issue (again) our NF-e de devolução of a return (after a failure or a cancellation)', scope: 'returns:write', schema: s.issueDocument, idempotent: true, status: 201, responses: { body: SalesReturn, errors: { 404: ['RETURN_NOT_FOUND'], 409: ['ALREADY_INVOICED'], 422: ['RETURN_WITHOUT_FISCAL_DOCUMENT', 'RETURN_DOCUMENT_BY_CUSTOMER', 'ORIGINAL_NOT_AUTHORIZED', 'RETURN_NOT_POSSIBLE'] } }, handler: c.issueDocument },
  { method: 'post', path: '/returns/:filialId', tag: 'Returns', summary: 'Register a return (restock, refund, returned quantities)', scope: 'returns:write', schema: s.register, idempotent: true, status: 201, responses: { body: SalesReturn, errors: { 404: ['CUSTOMER_NOT_FOUND', 'SALES_ORDER_ITEM_NOT_FOUND'], 422: ['REFUND_METHOD_INVALID', 'RETURN_QUANTITY_EXCEEDS_RETURNABLE'] } }, handler: c.register },
]);
