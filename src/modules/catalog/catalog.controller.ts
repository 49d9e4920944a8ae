import type { Request, Response } from 'express';
import { mapPage } from '../../core/pagination';
import { toCustomerDto, toPaymentMethodDto, toProductDto, toSellerDto, toStockBalanceDto, toSupplierDto } from './catalog.mapper';
import { customerService, sellerService, supplierService } from './party.service';
import { paymentMethodService } from './payment-method.service';
import { productService } from './product.service';
import { listStock } from './stock-query.service';

type Service<E> = {
  list: (ctx: Request['ctx'], q: any) => Promise<{ data: E[]; pagination: any }>;
  get: (ctx: Request['ctx'], id: number) => Promise<E>;
  create: (ctx: Request['ctx'], input: any) => Promise<E>;
  update: (ctx: Request['ctx'], id: number, version: number, input: any) => Promise<E>;
};

/** The four handlers of a master-data resource, each: parse → one service call → DTO. */
function resourceHandlers<E>(service: Service<E>, toDto: (e: E) => unknown) {
  return {
    list: async (req: Request, res: Response) => {
      res.json(mapPage(await service.list(req.ctx, req.valid.query), toDto));
    },
    get: async (req: Request, res: Response) => {
      res.json(toDto(await service.get(req.ctx, req.valid.params.id)));
    },
    create: async (req: Request, res: Response) => {
      res.status(201).json(toDto(await service.create(req.ctx, req.valid.body)));
    },
    update: async (req: Request, res: Response) => {
      const { version, ...patch } = req.valid.body;
      res.json(toDto(await service.update(req.ctx, req.valid.params.id, version, patch)));
    },
  };
}

export const products = resourceHandlers(productService, toProductDto);
export const customers = resourceHandlers(customerService, toCustomerDto);
export const sellers = resourceHandlers(sellerService, toSellerDto);
export const suppliers = resourceHandlers(supplierService, toSupplierDto);

export const paymentMethods = {
  list: async (req: Request, res: Response) => {
    res.json({ data: (await paymentMethodService.list(req.ctx, req.valid.query)).map(toPaymentMethodDto) });
  },
  create: async (req: Request, res: Response) => {
    res.status(201).json(toPaymentMethodDto(await paymentMethodService.create(req.ctx, req.valid.body)));
  },
};

export async function stock(req: Request, res: Response) {
  const page = await listStock(req.ctx, req.valid.params.filialId, req.valid.query);
  res.json(mapPage(page, (row) => toStockBalanceDto(row.balance, row.product)));
}
