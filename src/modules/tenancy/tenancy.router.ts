import { defineRoutes } from '../../core/http/route';
import * as controller from './tenancy.controller';

export const tenancyRoutes = defineRoutes([
  { method: 'get', path: '/me', tag: 'Tenancy', summary: "The token's user, company and granted filiais", handler: controller.me },
]);
