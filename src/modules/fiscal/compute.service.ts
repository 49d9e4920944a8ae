import type { EntityManager } from 'typeorm';
import { normalizeDocument } from '../../core/br-documents';
import { UF_IBGE_CODES } from '../../core/br-fiscal';
import type { ActorContext } from '../../core/context';
import type { Statement } from '../../core/db/batching-query-runner';
import { readBatch, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import type { Customer } from '../catalog';
import { lastStEntries } from '../entry-document';
import { filialFiscalProfileReads, getFilialFiscalProfile } from '../tenancy';
import {
  computeDocument,
  crtOf,
  destinationOf,
  EngineApproximateTax,
  EngineInput,
  EngineRule,
  EngineRuleSet,
  EngineTaxGroup,
} from './engine';
import { fiscalDataRepository as repo } from './fiscal-data.repository';
import type {
  ComputeFiscalDocument,
  ComputedFiscalDocument,
  FiscalAddress,
  FiscalComputationRequest,
  FiscalIssuer,
  FiscalRecipient,
} from './fiscal-document';
import type { RuleSet } from './entities/rule-set.entity';
import {
  cachedFiscalData,
  cacheFiscalData,
  CompanyFiscalData,
  loadCompanyFiscalData,
  fiscalDataVersionRead,
  readsInIssueOrder,
  ruleKey,
  versionOf,
} from './rule-data-cache';

/*
 * The loader of the tax engine (SPEC §12.1): reads the filial, the customer, the products, the
 * company's tax groups and rules, the UF rates, the rule set of the date and the Lei 12.741 rows
 * inside the tenant, then runs the pure engine (engine.ts). It writes nothing.
 */

const BRAZIL = { countryCode: '1058', countryName: 'BRASIL' };

export function customerAddress(c: Customer): FiscalAddress | null {
  if (!c.municipalityCode || !c.uf) {
    if (c.personType === 'FOREIGN' && c.countryCode !== '1058') {
      return {
        street: c.addressStreet ?? '',
        number: c.addressNumber ?? 'S/N',
        complement: c.addressComplement,
        district: c.addressDistrict ?? '',
        municipalityCode: '9999999',
        municipalityName: 'EXTERIOR',
        uf: 'EX',
        postalCode: null,
        countryCode: c.countryCode,
        countryName: c.countryName,
        phone: c.phone,
      };
    }
    return null;
  }
  return {
    street: c.addressStreet ?? '',
    number: c.addressNumber ?? 'S/N',
    complement: c.addressComplement,
    district: c.addressDistrict ?? '',
    municipalityCode: c.municipalityCode,
    municipalityName: c.municipalityName ?? '',
    uf: c.uf,
    postalCode: c.postalCode,
    countryCode: c.countryCode,
    countryName: c.countryName,
    phone: c.phone,
  };
}

export const personTypeOf = (c: Pick<Customer, 'personType' | 'document'>): 'PF' | 'PJ' | 'FOREIGN' =>
  c.personType ?? (c.document && c.document.length === 11 ? 'PF' : c.document ? 'PJ' : 'PF');

export function recipientOf(customer: Customer): FiscalRecipient {
  return {
    customerId: customer.id,
    personType: personTypeOf(customer),
    document: customer.document,
    name: customer.name,
    ieIndicator: customer.ieIndicator,
    stateRegistration: customer.ieIndicator === 2 ? null : customer.stateRegistration,
    email: customer.email,
    address: customerAddress(customer),
  };
}

function anonymousRecipient(consumerDocument: string | null | undefined): FiscalRecipient {
  const document = consumerDocument ? normalizeDocument(consumerDocument) : null;
  if (consumerDocument && !document)
    throw new BusinessRuleError('FISCAL_DATA_INVALID', 'consumerDocument is not a valid CPF or CNPJ', {
      errors: [{ path: 'consumerDocument', message: 'not a valid CPF or CNPJ' }],
    });
  return {
    customerId: null,
    personType: document && document.length === 14 ? 'PJ' : 'PF',
    document,
    name: null,
    ieIndicator: 9,
    stateRegistration: null,
    email: null,
    address: null,
  };
}

/** The rule set in force on `date`: a company's row of a code overrides the shipped one; the latest start wins. */
function ruleSetOn(rows: RuleSet[], companyId: number, date: string): EngineRuleSet | null {
  const byCode = new Map<string, RuleSet>();
  for (const r of rows) {
    const seen = byCode.get(r.code);
    if (!seen || (r.companyId === companyId && seen.companyId === 0)) byCode.set(r.code, r);
  }
  let best: RuleSet | null = null;
  for (const r of byCode.values()) {
    if (r.validFrom <= date && (r.validTo === null || date <= r.validTo) && (!best || r.validFrom > best.validFrom)) best = r;
  }
  return best;
}

type FiscalProfile = NonNullable<Awaited<ReturnType<typeof getFilialFiscalProfile>>>;

function issuerOf(profile: FiscalProfile): FiscalIssuer {
  const { filial } = profile;
  return {
    filialId: filial.id,
    document: filial.cnpj,
    name: profile.companyName,
    tradeName: filial.tradeName ?? filial.name,
    stateRegistration: filial.stateRegistration ?? '',
    cnae: filial.cnae,
    crt: crtOf(filial.taxRegime, filial.simplesExcessSublimit),
    industrial: filial.industrial,
    taxRegime: filial.taxRegime,
    address: {
      street: filial.addressStreet ?? '',
      number: filial.addressNumber ?? 'S/N',
      complement: filial.addressComplement,
      district: filial.addressDistrict ?? '',
      municipalityCode: filial.municipalityCode ?? '',
      municipalityName: filial.municipalityName ?? '',
      uf: filial.uf,
      postalCode: filial.postalCode,
      ...BRAZIL,
      phone: filial.phone,
    },
    ufCode: UF_IBGE_CODES[filial.uf] ?? '',
  };
}

/** One of our filiais as the recipient (a transfer): a contributor by its IE, at its address. */
function filialRecipient(f: FiscalIssuer): FiscalRecipient {
  return {
    customerId: null,
    personType: 'PJ',
    document: f.document,
    name: f.name,
    ieIndicator: f.stateRegistration ? 1 : 9,
    stateRegistration: f.stateRegistration || null,
    email: null,
    address: f.address,
  };
}

/** The filial as the issuer of a document (a devolução built from an original, outside the engine). */
export async function loadFiscalIssuer(ctx: ActorContext, filialId: number, em?: EntityManager): Promise<FiscalIssuer> {
  const profile = await getFilialFiscalProfile(em ?? readerOf(ctx), ctx.companyId, filialId);
  if (!profile) throw new NotFoundError('Filial');
  return issuerOf(profile);
}

/** A customer as the recipient of a document. */
export async function loadFiscalRecipient(ctx: ActorContext, customerId: number, em?: EntityManager): Promise<FiscalRecipient> {
  const customer = await repo.customer(em ?? readerOf(ctx), ctx.companyId, customerId);
  if (!customer) throw new NotFoundError('Customer');
  return recipientOf(customer);
}

/**
 * The company's master data for a computation: the cached copy when the database's version (`version`,
 * read before anything it is checked against) is the one it was read at, else read now — with the
 * version in the same batch when `speculative` rows came along (read after it, in issue order).
 */
async function companyDataOf(
  db: EntityManager,
  companyId: number,
  version: string,
  speculative: CompanyFiscalData | null,
): Promise<CompanyFiscalData> {
  const hit = cachedFiscalData(companyId, version);
  if (hit) return hit;
  const data = speculative ?? (await loadCompanyFiscalData(db, companyId, version));
  cacheFiscalData(companyId, data);
  return data;
}

/**
 * The loader's reads of the tenant in one batch (readBatch: one round trip on MySQL, in a unit or on the
 * pool), in this order: the master data's version, the filial and its company, the customer, the
 * products, the receiving filial of a transfer, the Lei 12.741 rows. Issued when called (the version
 * before anything a caller reads after it).
 */
function loaderReads(db: EntityManager, companyId: number, request: FiscalComputationRequest, productIds: number[]) {
  const filial = filialFiscalProfileReads(db, companyId, request.filialId);
  const customer = request.customerId !== null ? repo.customerRead(db, companyId, request.customerId) : null;
  const products = productIds.length ? repo.productsRead(db, companyId, productIds) : null;
  const receiving = request.recipientFilialId ? filialFiscalProfileReads(db, companyId, request.recipientFilialId) : null;
  const approx = repo.approximateTaxReads(db, companyId, request.filialId, productIds);
  const statements: Statement[] = [fiscalDataVersionRead(companyId), ...filial.statements];
  if (customer) statements.push(customer.statement);
  if (products) statements.push(products.statement);
  if (receiving) statements.push(...receiving.statements);
  statements.push(...approx.statements);
  return readBatch(db, statements).then((raws) => {
    let at = 3;
    const next = () => raws[at++];
    const version = versionOf(raws[0]);
    const profile = filial.profile(raws[1], raws[2]);
    const customerRow = customer ? (customer.rows(next())[0] ?? null) : null;
    const productRows = products ? products.rows(next()) : [];
    const receivingProfile = receiving ? receiving.profile(next(), next()) : null;
    return [version, profile, customerRow, productRows, receivingProfile, approx.answer(raws.slice(at))] as const;
  });
}

/** Everything the pure engine needs for `request`, read inside the tenant (one round trip, no writes, but for goods already taxed by ST). */
export async function loadEngineInput(ctx: ActorContext, request: FiscalComputationRequest, em?: EntityManager): Promise<EngineInput> {
  const db = em ?? readerOf(ctx);
  const companyId = ctx.companyId;
  const productIds = [...new Set(request.items.map((i) => i.productId))];
  // The version goes first. A company never cached reads its master data in the same batch when the
  // batch runs in issue order (so after the version); on the pool, or when the version moved, after it.
  const speculate = !cachedFiscalData(companyId) && readsInIssueOrder(db);
  const reads = loaderReads(db, companyId, request, productIds);
  const [[version, profile, customer, products, receiving, approx], speculative] = await Promise.all([
    reads,
    speculate ? loadCompanyFiscalData(db, companyId, '') : Promise.resolve(null),
  ]);
  if (!profile || (request.recipientFilialId && !receiving)) throw new NotFoundError('Filial');
  if (request.customerId !== null && !customer) throw new NotFoundError('Customer');
  const data = await companyDataOf(db, companyId, version, speculative && { ...speculative, version });
  const { filial } = profile;
  const issuer = issuerOf(profile);
  const recipient = receiving
    ? filialRecipient(issuerOf(receiving))
    : customer
      ? recipientOf(customer)
      : anonymousRecipient(request.consumerDocument);
  const destination = destinationOf(request.model, filial.uf, recipient);
  // The rates of the issuer's UF and, interstate, the recipient's.
  const ufs = new Set([filial.uf, destination === 'INTERSTATE' ? recipient.address!.uf : filial.uf]);
  const ufRates = data.ufRates.filter((r) => ufs.has(r.uf));
  // The products' tax groups and the operation's rules for them.
  const taxGroups = new Map<number, EngineTaxGroup>();
  const rules: EngineRule[] = [];
  for (const p of products) {
    if (p.taxGroupId === null || taxGroups.has(p.taxGroupId)) continue;
    const group = data.taxGroups.get(p.taxGroupId);
    if (!group) continue;
    taxGroups.set(group.id, group);
    rules.push(...(data.rules.get(ruleKey(group.id, request.operation)) ?? []));
  }
  // Goods already taxed by ST declare what their entry paid (row 8b): read only when a rule says so.
  const retained = rules.some((r) => r.stMode === 'ALREADY_TAXED')
    ? await lastStEntries(db, companyId, request.filialId, productIds, request.date)
    : [];
  const approximateTaxes = approx.loaded
    ? new Map<string, EngineApproximateTax>(
        approx.rows.filter((r) => r.validFrom <= request.date && request.date <= r.validTo).map((r) => [r.ncm, r]),
      )
    : null;
  return {
    model: request.model,
    operation: request.operation,
    date: request.date,
    issuer,
    regime: filial.taxRegime,
    simplesCreditRate: filial.simplesCreditRate,
    recipient,
    items: request.items.map((i) => ({
      productId: i.productId,
      salesOrderItemId: i.salesOrderItemId ?? null,
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      discount: i.discount,
    })),
    freight: request.freight,
    insurance: request.insurance,
    discount: request.discount,
    otherExpenses: request.otherExpenses,
    presence: request.presence,
    // The document's indFinal (order or issue) over the customer's; neither → from the IE (engine).
    finalConsumer: request.finalConsumer ?? (receiving ? undefined : (customer?.finalConsumer ?? undefined)),
    products: new Map(products.map((p) => [p.id, p])),
    taxGroups,
    rules,
    ufRates,
    ruleSet: ruleSetOn(data.ruleSets, companyId, request.date),
    approximateTaxes,
    stAgreements: data.stAgreements.get(filial.uf) ?? [],
    retainedSt: new Map(retained.map((e) => [e.productId, e])),
  };
}

export const computeFiscalDocument: ComputeFiscalDocument = async (
  ctx: ActorContext,
  request: FiscalComputationRequest,
  em?: EntityManager,
): Promise<ComputedFiscalDocument> => computeDocument(await loadEngineInput(ctx, request, em));
