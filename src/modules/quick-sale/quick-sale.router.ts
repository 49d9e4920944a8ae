import { defineRoutes } from '../../core/http/route';
import * as c from './quick-sale.controller';
import { quickSaleSchemas as s } from './quick-sale.schemas';

export const quickSaleRoutes = defineRoutes([
  { method: 'get', path: '/quick-sale/configuration/:filialId', tag: 'Quick sale', summary: 'Quick-sale configuration of a filial (defaults with configured:false until saved)', schema: s.getConfiguration, handler: c.getConfiguration },
  { method: 'put', path: '/quick-sale/configuration/:filialId', tag: 'Quick sale', summary: 'Save the quick-sale configuration (needs version after the first save)', scope: 'quick-sale:write', schema: s.putConfiguration, handler: c.putConfiguration },
  { method: 'get', path: '/quick-sale/validate-configuration/:filialId', tag: 'Quick sale', summary: 'Every problem that stops a quick sale in this filial', schema: s.validateConfiguration, handler: c.validateConfiguration },
]);
