import { defineRoutes } from '../../core/http/route';
import * as c from './quick-sale.controller';
import { ConfigurationValidation, QuickSaleConfiguration } from './quick-sale.responses';
import { quickSaleSchemas as s } from './quick-sale.schemas';

export const quickSaleRoutes = defineRoutes([
  { method: 'get', path: '/quick-sale/configuration/:filialId', tag: 'Quick sale', summary: 'Quick-sale configuration of a filial (defaults with configured:false until saved)', schema: s.getConfiguration, responses: { body: QuickSaleConfiguration }, handler: c.getConfiguration },
  { method: 'put', path: '/quick-sale/configuration/:filialId', tag: 'Quick sale', summary: 'Save the quick-sale configuration (needs version after the first save)', scope: 'quick-sale:write', schema: s.putConfiguration, responses: { body: QuickSaleConfiguration, errors: { 409: ['STALE_VERSION'], 422: ['INVALID_QUICK_SALE_CONFIGURATION'] } }, handler: c.putConfiguration },
  { method: 'get', path: '/quick-sale/validate-configuration/:filialId', tag: 'Quick sale', summary: 'Every problem that stops a quick sale in this filial', schema: s.validateConfiguration, responses: { body: ConfigurationValidation }, handler: c.validateConfiguration },
]);
