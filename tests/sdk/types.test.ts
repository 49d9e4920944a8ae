import { expect } from 'chai';
import type {
  CancelPreview,
  Cte,
  CtePreview,
  CteStageResult,
  FulfillmentView,
  FulfillResult,
  GroupPreview,
  SalesOrder,
  Schema,
} from '../../sdk/src';

/*
 * The hand-written types of the SDK's first modules must accept what the API documents: each generated
 * response schema (sdk/src/openapi.ts, from the routes) is assigned to its hand-written type here, so
 * `npm run typecheck` fails when a documented response drifts from what the SDK promises.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a declaration for the type checker only
declare const generated: {
  salesOrder: Schema<'SalesOrder'>;
  fulfillResult: Schema<'FulfillResult'>;
  fulfillmentView: Schema<'SalesOrderFulfillmentView'>;
  groupPreview: Schema<'SalesOrderGroupPreview'>;
  cancelPreview: Schema<'SalesOrderCancelPreview'>;
  cte: Schema<'Cte'>;
  ctePreview: Schema<'CtePreview'>;
  cteStaged: Schema<'CteStaged'>;
};
export const handWritten = (g: typeof generated) => {
  const salesOrder: SalesOrder = g.salesOrder;
  const fulfillResult: FulfillResult = g.fulfillResult;
  const fulfillmentView: FulfillmentView = g.fulfillmentView;
  const groupPreview: GroupPreview = g.groupPreview;
  const cancelPreview: CancelPreview = g.cancelPreview;
  const cte: Cte = g.cte;
  const ctePreview: CtePreview = g.ctePreview;
  const cteStaged: CteStageResult = g.cteStaged;
  return [salesOrder, fulfillResult, fulfillmentView, groupPreview, cancelPreview, cte, ctePreview, cteStaged];
};

describe('SDK: hand-written types accept the generated response schemas', () => {
  it('is checked by the type checker (npm run typecheck); the generated file is current (npm run sdk:check)', () => {
    expect(handWritten).to.be.a('function');
  });
});
