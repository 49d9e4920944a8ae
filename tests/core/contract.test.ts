import { expect } from 'chai';
import { allRoutes } from '../../src/modules';
import { CONTRACT_REQUIRE_ALL, openapi, undocumentedRoutes } from '../support/contract';

describe('API contract (OpenAPI responses)', () => {
  it('every route documents its responses', function () {
    const missing = undocumentedRoutes();
    expect(allRoutes().length).to.be.greaterThan(100);
    expect(missing, 'routes without response schemas, by tag').to.deep.equal({});
    expect(CONTRACT_REQUIRE_ALL, 'the check is on for every route').to.equal(true);
  });

  it('documents problem codes per status and the tenant headers as security schemes', () => {
    const doc = openapi as any;
    expect(Object.keys(doc.components.securitySchemes)).to.have.members(['bearer', 'companyId', 'filialId']);
    expect(doc.components.securitySchemes.companyId).to.include({ type: 'apiKey', in: 'header', name: 'x-company-id' });
    const read = doc.paths['/api/sales-order/detail/{id}'].get.responses;
    expect(read['200'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/SalesOrderDetail' });
    expect(read['404'].content['application/problem+json'].schema.allOf[1].properties.code.enum).to.deep.equal(['SALES_ORDER_NOT_FOUND']);
    expect(read['401'].content['application/problem+json'].schema.allOf[1].properties.code.enum).to.include('TOKEN_EXPIRED');
    expect(doc.components.schemas.SalesOrder.additionalProperties).to.equal(false);
    expect(doc.tags.map((t: { name: string }) => t.name).slice(0, 3)).to.deep.equal(['Tenancy', 'Settings', 'Catalog']);
    // Examples read like real data: a hashid of the type, a calendar date.
    const order = doc.components.schemas.SalesOrder.properties;
    expect(order.id.example).to.match(/^[A-Za-z0-9]{6,}$/);
    expect(order.validUntil.example).to.equal('2026-03-14');
  });
});
