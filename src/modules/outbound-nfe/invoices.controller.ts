import type { Request, Response } from 'express';
import type { ValidRequest } from '../../core/http/typed-input';
import { mapPage } from '../../core/pagination';
import { sendInvoiceEmail } from './email.service';
import { cancelInvoice, correctInvoice } from './events.service';
import {
  toInvoiceDetailDto,
  toInvoiceDto,
  toNumberReportDto,
  toPreviewDto,
  toSeriesDto,
  toSmtpSettingsDto,
  toVoidDto,
} from './invoices.mapper';
import { invoiceSchemas as s } from './invoices.schemas';
import { issueInvoice, previewInvoice, resendInvoice } from './issue.service';
import { accessibleInvoice, invoiceDetail, invoicePdf, invoiceXml, listInvoices } from './query.service';
import { listSeries, numberReport, saveSeries } from './series.service';
import { getSmtpSettings, saveSmtpSettings } from './smtp-settings.service';
import { deleteLogo, getLogo, saveLogo } from './logo.service';
import type { CompanyLogo } from './entities/company-logo.entity';

const toLogoDto = (l: CompanyLogo) => ({
  contentType: l.contentType,
  bytes: l.image.length,
  updatedAt: new Date(l.updatedAt).toISOString(),
});
import { voidNumbers, voidRejected } from './void.service';

/** Thin handlers: validated input → one service call → DTO. */

export async function preview(req: ValidRequest<typeof s.issue>, res: Response) {
  res.json(toPreviewDto(await previewInvoice(req.ctx, req.valid.body)));
}

export async function issue(req: ValidRequest<typeof s.issue>, res: Response) {
  const r = await issueInvoice(req.ctx, req.valid.body, req.header('idempotency-key') ?? null);
  res.status(r.created ? 201 : 200).json(toInvoiceDto(r.doc));
}

export async function list(req: ValidRequest<typeof s.list>, res: Response) {
  res.json(mapPage(await listInvoices(req.ctx, req.valid.params.filialId, req.valid.query), toInvoiceDto));
}

export async function detail(req: ValidRequest<typeof s.byId>, res: Response) {
  const r = await invoiceDetail(req.ctx, req.valid.params.id);
  res.json(toInvoiceDetailDto(r.doc, r.events));
}

export async function resend(req: ValidRequest<typeof s.resend>, res: Response) {
  res.json(toInvoiceDto(await resendInvoice(req.ctx, req.valid.params.id, req.valid.body)));
}

export async function cancel(req: ValidRequest<typeof s.cancel>, res: Response) {
  res.json(toInvoiceDto(await cancelInvoice(req.ctx, req.valid.params.id, req.valid.body.justification)));
}

export async function correct(req: ValidRequest<typeof s.correct>, res: Response) {
  const r = await correctInvoice(req.ctx, req.valid.params.id, req.valid.body.correction);
  const d = await invoiceDetail(req.ctx, r.doc.id);
  res.json(toInvoiceDetailDto(d.doc, d.events));
}

export async function voidOne(req: ValidRequest<typeof s.voidOne>, res: Response) {
  await accessibleInvoice(req.ctx, req.valid.params.id);
  res.json(toInvoiceDto(await voidRejected(req.ctx, req.valid.params.id, req.valid.body.justification)));
}

export async function email(req: ValidRequest<typeof s.email>, res: Response) {
  await accessibleInvoice(req.ctx, req.valid.params.id);
  res.json(toInvoiceDto(await sendInvoiceEmail(req.ctx, req.valid.params.id, req.valid.body.to)));
}

export async function xml(req: ValidRequest<typeof s.byId>, res: Response) {
  const r = await invoiceXml(req.ctx, req.valid.params.id);
  res.type('application/xml').setHeader('Content-Disposition', `inline; filename="${r.doc.accessKey}-procNFe.xml"`);
  res.send(r.xml);
}

export async function danfe(req: ValidRequest<typeof s.byId>, res: Response) {
  const r = await invoicePdf(req.ctx, req.valid.params.id);
  res.type('application/pdf').setHeader('Content-Disposition', `inline; filename="${r.doc.accessKey}-danfe.pdf"`);
  res.send(r.pdf);
}

export async function seriesList(req: ValidRequest<typeof s.seriesList>, res: Response) {
  res.json({ data: (await listSeries(req.ctx, req.valid.params.filialId)).map(toSeriesDto) });
}

export async function seriesSave(req: ValidRequest<typeof s.seriesSave>, res: Response) {
  res.json(toSeriesDto(await saveSeries(req.ctx, req.valid.params.filialId, req.valid.body)));
}

export async function numbers(req: ValidRequest<typeof s.numbers>, res: Response) {
  res.json(toNumberReportDto(await numberReport(req.ctx, req.valid.params.seriesId, req.valid.query)));
}

export async function voidRange(req: ValidRequest<typeof s.voidNumbers>, res: Response) {
  res.status(201).json(toVoidDto(await voidNumbers(req.ctx, req.valid.body)));
}

export async function smtpSettings(req: Request, res: Response) {
  res.json(toSmtpSettingsDto(await getSmtpSettings(req.ctx)));
}

export async function smtpSettingsSave(req: ValidRequest<typeof s.smtpSettings>, res: Response) {
  res.json(toSmtpSettingsDto(await saveSmtpSettings(req.ctx, req.valid.body)));
}

export async function logo(req: Request, res: Response) {
  const found = await getLogo(req.ctx);
  res.type(found.contentType).setHeader('Cache-Control', 'no-cache');
  res.send(found.image);
}

export async function logoSave(req: ValidRequest<typeof s.logo>, res: Response) {
  res.json(toLogoDto(await saveLogo(req.ctx, req.valid.body)));
}

export async function logoDelete(req: Request, res: Response) {
  await deleteLogo(req.ctx);
  res.status(204).end();
}
