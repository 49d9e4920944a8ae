import { EntityManager } from 'typeorm';
import { recordAudit, diff } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, ConflictError, StaleVersionError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { encodeId } from '../../core/hashids';
import { Customer, PaymentMethod, Seller } from '../catalog';
import { QuickSaleConfiguration } from './entities/quick-sale-configuration.entity';
import { selectRows } from '../../core/db/sql';
import { readSaleSetup } from './quick-sale.repository';

export interface ConfigurationInput {
  enabled: boolean;
  defaultCustomerId: number | null;
  defaultSellerId: number | null;
  paymentMethods: string[];
  defaultPaymentMethod: string | null;
  allowNegativeStock: boolean;
  requireCustomer: boolean;
  maxDiscountPercent: Dec;
  requireCashSession: boolean;
  cashDifferenceLimit: Dec;
  version?: number;
}

export interface ConfigurationProblem {
  code: string;
  field: string;
  message: string;
}

/** What GET answers before anything was saved. */
export const defaultConfiguration = (companyId: number, filialId: number): QuickSaleConfiguration =>
  Object.assign(new QuickSaleConfiguration(), {
    companyId,
    filialId,
    enabled: false,
    defaultCustomerId: null,
    defaultSellerId: null,
    paymentMethods: [],
    defaultPaymentMethod: null,
    allowNegativeStock: false,
    requireCustomer: false,
    maxDiscountPercent: new Dec(0),
    requireCashSession: false,
    cashDifferenceLimit: new Dec(0),
    version: 0,
  });

export async function findConfiguration(em: EntityManager, companyId: number, filialId: number): Promise<QuickSaleConfiguration | null> {
  return (await selectRows(em, QuickSaleConfiguration, companyId, { filialId }))[0] ?? null;
}

/**
 * Every problem of a configuration (not only the first), each with a stable code and its field.
 * Used by PUT (refuses with 422), by validate-configuration, and by the quick sale itself.
 */
export async function configurationProblems(
  em: EntityManager,
  companyId: number,
  config: Pick<ConfigurationInput, 'defaultCustomerId' | 'defaultSellerId' | 'paymentMethods' | 'defaultPaymentMethod' | 'enabled'>,
  /** Records the caller already read (null: looked for, not there); the rest are read here. */
  options: { checkEnabled: boolean; methods?: Map<string, PaymentMethod>; customer?: Customer | null; seller?: Seller | null },
): Promise<ConfigurationProblem[]> {
  const problems: ConfigurationProblem[] = [];
  if (options.checkEnabled && !config.enabled)
    problems.push({ code: 'QUICK_SALE_DISABLED', field: 'enabled', message: 'Quick sale is disabled for this filial' });
  if (config.defaultCustomerId !== null) {
    const c =
      options.customer !== undefined ? options.customer : (await selectRows(em, Customer, companyId, { id: config.defaultCustomerId }))[0];
    if (!c) problems.push({ code: 'DEFAULT_CUSTOMER_NOT_FOUND', field: 'defaultCustomerId', message: 'Default customer not found' });
    else if (!c.active)
      problems.push({ code: 'DEFAULT_CUSTOMER_INACTIVE', field: 'defaultCustomerId', message: 'Default customer is inactive' });
  }
  if (config.defaultSellerId !== null) {
    const s = options.seller !== undefined ? options.seller : await em.findOneBy(Seller, { id: config.defaultSellerId, companyId });
    if (!s) problems.push({ code: 'DEFAULT_SELLER_NOT_FOUND', field: 'defaultSellerId', message: 'Default seller not found' });
    else if (!s.active) problems.push({ code: 'DEFAULT_SELLER_INACTIVE', field: 'defaultSellerId', message: 'Default seller is inactive' });
  }
  if (!config.paymentMethods.length)
    problems.push({ code: 'NO_PAYMENT_METHODS', field: 'paymentMethods', message: 'At least one payment method is required' });
  const byCode = options.methods ?? (await paymentMethodsByCode(em, companyId, config.paymentMethods));
  config.paymentMethods.forEach((code, i) => {
    const m = byCode.get(code);
    if (!m) problems.push({ code: 'PAYMENT_METHOD_NOT_FOUND', field: `paymentMethods[${i}]`, message: `Payment method ${code} not found` });
    else if (!m.active)
      problems.push({ code: 'PAYMENT_METHOD_INACTIVE', field: `paymentMethods[${i}]`, message: `Payment method ${code} is inactive` });
  });
  if (config.defaultPaymentMethod !== null && !config.paymentMethods.includes(config.defaultPaymentMethod)) {
    problems.push({
      code: 'DEFAULT_PAYMENT_METHOD_NOT_ALLOWED',
      field: 'defaultPaymentMethod',
      message: 'The default payment method must be one of paymentMethods',
    });
  }
  return problems;
}

const snapshot = (c: QuickSaleConfiguration) => ({
  enabled: c.enabled,
  defaultCustomerId: c.defaultCustomerId === null ? null : encodeId('customer', c.defaultCustomerId),
  defaultSellerId: c.defaultSellerId === null ? null : encodeId('seller', c.defaultSellerId),
  paymentMethods: c.paymentMethods,
  defaultPaymentMethod: c.defaultPaymentMethod,
  allowNegativeStock: c.allowNegativeStock,
  requireCustomer: c.requireCustomer,
  maxDiscountPercent: c.maxDiscountPercent.toFixed(4),
  requireCashSession: c.requireCashSession,
  cashDifferenceLimit: c.cashDifferenceLimit.toFixed(2),
});

export const quickSaleConfigurationService = {
  async get(ctx: TenantContext, filialId: number): Promise<{ configuration: QuickSaleConfiguration; configured: boolean }> {
    const saved = await findConfiguration(readerOf(ctx), ctx.companyId, filialId);
    return saved
      ? { configuration: saved, configured: true }
      : { configuration: defaultConfiguration(ctx.companyId, filialId), configured: false };
  },

  /** Saves the whole configuration; every referenced id must exist and be active in the tenant. */
  async put(ctx: TenantContext, filialId: number, input: ConfigurationInput): Promise<QuickSaleConfiguration> {
    try {
      return await inTransaction(ctx, async (em) => {
        const problems = await configurationProblems(em, ctx.companyId, input, { checkEnabled: false });
        if (problems.length) {
          throw new BusinessRuleError('INVALID_QUICK_SALE_CONFIGURATION', 'The configuration references unknown or inactive records', {
            problems,
            errors: problems.map((p) => ({ path: p.field, message: p.message })),
          });
        }
        const current = await findConfiguration(em, ctx.companyId, filialId);
        const values = {
          enabled: input.enabled,
          defaultCustomerId: input.defaultCustomerId,
          defaultSellerId: input.defaultSellerId,
          paymentMethods: input.paymentMethods,
          defaultPaymentMethod: input.defaultPaymentMethod,
          allowNegativeStock: input.allowNegativeStock,
          requireCustomer: input.requireCustomer,
          maxDiscountPercent: input.maxDiscountPercent,
          requireCashSession: input.requireCashSession,
          cashDifferenceLimit: input.cashDifferenceLimit,
        };
        let saved: QuickSaleConfiguration;
        if (!current) {
          if (input.version) throw new StaleVersionError('Quick sale configuration', 0);
          saved = await em.save(em.create(QuickSaleConfiguration, { companyId: ctx.companyId, filialId, ...values }));
          await recordAudit(em, ctx, {
            entity: 'quick-sale-configuration',
            entityId: saved.id,
            action: 'CREATED',
            changes: diff({}, snapshot(saved)),
          });
        } else {
          if (input.version !== current.version) throw new StaleVersionError('Quick sale configuration', current.version);
          const result = await em
            .createQueryBuilder()
            .update(QuickSaleConfiguration)
            .set({
              ...values,
              maxDiscountPercent: values.maxDiscountPercent as never,
              cashDifferenceLimit: values.cashDifferenceLimit as never,
              paymentMethods: values.paymentMethods as never,
              version: () => 'version + 1',
            })
            .where('id = :id AND company_id = :companyId AND version = :version', {
              id: current.id,
              companyId: ctx.companyId,
              version: current.version,
            })
            .execute();
          if (!result.affected) throw new StaleVersionError('Quick sale configuration', current.version + 1);
          saved = await em.findOneByOrFail(QuickSaleConfiguration, { id: current.id });
          await recordAudit(em, ctx, {
            entity: 'quick-sale-configuration',
            entityId: saved.id,
            action: 'UPDATED',
            changes: diff(snapshot(current), snapshot(saved)),
          });
        }
        await publishEvent(em, ctx, {
          type: 'quick-sale.configuration-changed',
          filialId,
          aggregateType: 'quick-sale-configuration',
          aggregateId: saved.id,
          data: { filialId: encodeId('filial', filialId), version: saved.version, enabled: saved.enabled },
        });
        return saved;
      });
    } catch (err) {
      // Two first saves racing: the unique index lets one win; the other is stale.
      if (isUniqueViolation(err))
        throw new ConflictError('STALE_VERSION', 'The configuration was saved by someone else', { currentVersion: 1 });
      throw err;
    }
  },

  async validate(ctx: TenantContext, filialId: number): Promise<{ valid: boolean; problems: ConfigurationProblem[] }> {
    const { problems } = await loadSaleSetup(readerOf(ctx), ctx.companyId, filialId);
    return { valid: problems.length === 0, problems };
  },
};

export async function paymentMethodsByCode(em: EntityManager, companyId: number, codes: string[]): Promise<Map<string, PaymentMethod>> {
  const methods = codes.length ? await selectRows(em, PaymentMethod, companyId, { code: codes }) : [];
  return new Map(methods.map((m) => [m.code, m]));
}

export interface SaleSetup {
  configuration: QuickSaleConfiguration | null;
  /** The configured payment methods, by code. */
  methods: Map<string, PaymentMethod>;
  /** What stops a quick sale in this filial (empty → it may sell). */
  problems: ConfigurationProblem[];
  defaultCustomer?: Customer | null;
  defaultSeller?: Seller | null;
  /** Every sale of the filial issues its NFC-e. */
  nfceAutoIssue?: boolean;
  /** The terminal's open cash session rows (null: the sale names no terminal). */
  session?: Record<string, unknown>[] | null;
}

/**
 * Everything a counter sale needs from the configuration, read in one round trip: the configuration,
 * the company's payment methods (a short list) and the default customer and seller it names.
 */
export async function loadSaleSetup(
  em: EntityManager,
  companyId: number,
  filialId: number,
  terminalId: string | null = null,
): Promise<SaleSetup> {
  const { configuration, paymentMethods, defaultCustomer, defaultSeller, nfceAutoIssue, session } = await readSaleSetup(
    em,
    companyId,
    filialId,
    terminalId,
  );
  if (!configuration) {
    return {
      configuration: null,
      methods: new Map(),
      problems: [
        { code: 'QUICK_SALE_NOT_CONFIGURED', field: 'configuration', message: 'Quick sale has not been configured for this filial' },
      ],
    };
  }
  const configured = new Set(configuration.paymentMethods);
  const methods = new Map(paymentMethods.filter((m) => configured.has(m.code)).map((m) => [m.code, m]));
  const problems = await configurationProblems(em, companyId, configuration, {
    checkEnabled: true,
    methods,
    customer: defaultCustomer,
    seller: defaultSeller,
  });
  return { configuration, methods, problems, defaultCustomer, defaultSeller, nfceAutoIssue, session };
}
