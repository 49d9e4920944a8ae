import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage, type Page } from '../../core/pagination';
import type { ListQuery } from './catalog-resource';
import { toCustomerDto, toPaymentMethodDto, toProductDto, toSellerDto, toStockBalanceDto, toSupplierDto } from './catalog.mapper';
import { paymentMethodSchemas, type ResourceSchemas, stockSchemas } from './catalog.schemas';
import { customerService, sellerService, supplierService } from './party.service';
import { paymentMethodService } from './payment-method.service';
import { productService } from './product.service';
import { listStock } from './stock-query.service';

type Ctx = Request['ctx'];

type Service<E, I> = {
  list: (ctx: Ctx, q: ListQuery) => Promise<Page<E>>;
  get: (ctx: Ctx, id: number) => Promise<E>;
  create: (ctx: Ctx, input: I) => Promise<E>;
  update: (ctx: Ctx, id: number, version: number, input: I) => Promise<E>;
};

/** The four handlers of a master-data resource, each: parse → one service call → DTO. */
function resourceHandlers<E, I>(service: Service<E, I>, toDto: (e: E) => unknown) {
  type S = ResourceSchemas<I>;
  return {
    list: async (req: ValidRequest<S['list']>, res: Response) => {
      res.json(mapPage(await service.list(req.ctx, req.valid.query), toDto));
    },
    get: async (req: ValidRequest<S['get']>, res: Response) => {
      res.json(toDto(await service.get(req.ctx, req.valid.params.id)));
    },
    create: async (req: ValidRequest<S['create']>, res: Response) => {
      res.status(201).json(toDto(await service.create(req.ctx, req.valid.body)));
    },
    update: async (req: ValidRequest<S['update']>, res: Response) => {
      const { version, ...patch } = req.valid.body;
      res.json(toDto(await service.update(req.ctx, req.valid.params.id, version, patch as I)));
    },
  };
}

export const products = resourceHandlers(productService, toProductDto);
export const customers = resourceHandlers(customerService, toCustomerDto);
export const sellers = resourceHandlers(sellerService, toSellerDto);
export const suppliers = resourceHandlers(supplierService, toSupplierDto);

export const paymentMethods = {
  list: async (req: ValidRequest<typeof paymentMethodSchemas.list>, res: Response) => {
    res.json({ data: (await paymentMethodService.list(req.ctx, req.valid.query)).map(toPaymentMethodDto) });
  },
  create: async (req: ValidRequest<typeof paymentMethodSchemas.create>, res: Response) => {
    res.status(201).json(toPaymentMethodDto(await paymentMethodService.create(req.ctx, req.valid.body)));
  },
};

export async function stock(req: ValidRequest<typeof stockSchemas.list>, res: Response) {
  const page = await listStock(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json(mapPage(page, (row) => toStockBalanceDto(row.balance, row.product)));
}
