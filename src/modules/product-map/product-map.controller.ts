import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { toProductDto } from '../catalog';
import { productMapSchemas as s } from './product-map.schemas';
import { toEntryDto, toHistoryRowDto, toMatchDto, toSupplierRefDto } from './product-map.mapper';
import {
  autoCreateProduct,
  deleteEntry,
  linkItem,
  nextCode,
  searchProducts,
  supplierHistory,
  updateConversionFactor,
} from './product-map.service';
import { matchSupplierItems } from './product-match.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function match(req: ValidRequest<typeof s.match>, res: Response) {
  const { supplierDocument, items } = req.valid.body;
  res.json(toMatchDto(supplierDocument, items, await matchSupplierItems(req.ctx, supplierDocument, items)));
}

export async function link(req: ValidRequest<typeof s.link>, res: Response) {
  const { entry, created } = await linkItem(req.ctx, req.valid.body);
  res.status(created ? 201 : 200).json(toEntryDto(entry));
}

export async function autoCreate(req: ValidRequest<typeof s.autoCreate>, res: Response) {
  const result = await autoCreateProduct(req.ctx, req.valid.body);
  res.status(201).json({ product: toProductDto(result.product), entry: toEntryDto(result.entry), codeSource: result.codeSource });
}

export async function search(req: ValidRequest<typeof s.search>, res: Response) {
  res.json(mapPage(await searchProducts(req.ctx, req.valid.query), toProductDto));
}

export async function getNextCode(req: Request, res: Response) {
  res.json({ code: await nextCode(req.ctx) });
}

export async function history(req: ValidRequest<typeof s.history>, res: Response) {
  const { supplierDocument, filialId } = req.valid.params;
  const result = await supplierHistory(req.ctx, supplierDocument, filialId, req.valid.query);
  res.json({
    supplierDocument: result.supplierDocument,
    supplier: toSupplierRefDto(result.supplier),
    ...mapPage(result.page, toHistoryRowDto),
  });
}

export async function patchConversionFactor(req: ValidRequest<typeof s.conversionFactor>, res: Response) {
  const { conversionFactor, version } = req.valid.body;
  res.json(toEntryDto(await updateConversionFactor(req.ctx, req.valid.params.id, conversionFactor, version)));
}

export async function remove(req: ValidRequest<typeof s.remove>, res: Response) {
  await deleteEntry(req.ctx, req.valid.params.id);
  res.status(204).end();
}
