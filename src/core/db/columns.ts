import { Column, ColumnOptions, CreateDateColumn, UpdateDateColumn, ValueTransformer } from 'typeorm';
import { Dec, dec, DECIMAL_COLUMN, ScaleName, toFixed } from '../decimal';
import { isMysql } from './engine';

/*
 * Column helpers that give one entity definition the right physical type on both engines.
 * SQLite has no exact DECIMAL (NUMERIC affinity degrades to a double), so there decimals are kept as
 * text and all arithmetic happens in decimal.js; MySQL gets real DECIMAL(p,s). Either way the entity
 * property is a Dec and the wire value is a fixed-point string.
 */
function decimalTransformer(scale: number): ValueTransformer {
  return {
    to: (value: Dec | string | number | null | undefined) => (value === null || value === undefined ? value : toFixed(value, scale)),
    from: (value: string | number | null) => (value === null || value === undefined ? null : dec(value)),
  };
}

export function DecimalColumn(precision: number, scale: number, options: ColumnOptions = {}): PropertyDecorator {
  const physical: ColumnOptions = isMysql ? { type: 'decimal', precision, scale } : { type: 'varchar', length: precision + 2 };
  return Column({ ...physical, transformer: decimalTransformer(scale), ...options });
}

const scaled = (name: ScaleName, defaultValue: string, options: ColumnOptions) =>
  DecimalColumn(DECIMAL_COLUMN[name].precision, DECIMAL_COLUMN[name].scale, { default: defaultValue, ...options });

/** Money: DECIMAL(15,2). */
export const AmountColumn = (options: ColumnOptions = {}) => scaled('amount', '0.00', options);
/** Quantities: DECIMAL(18,4). */
export const QuantityColumn = (options: ColumnOptions = {}) => scaled('quantity', '0.0000', options);
/** Unit prices and costs: DECIMAL(21,10). */
export const PriceColumn = (options: ColumnOptions = {}) => scaled('price', '0.0000000000', options);
/** Conversion factors: DECIMAL(15,6). */
export const FactorColumn = (options: ColumnOptions = {}) => scaled('factor', '1.000000', options);

const dateTimeType: ColumnOptions = isMysql ? { type: 'datetime', precision: 3 } : { type: 'datetime' };

export const DateTimeColumn = (options: ColumnOptions = {}) => Column({ ...dateTimeType, ...options } as ColumnOptions);
// MySQL needs the default's precision to match the column's, or every schema diff reports a change.
const nowDefault: ColumnOptions = isMysql ? { default: () => 'CURRENT_TIMESTAMP(3)' } : {};
export const CreatedAtColumn = () => CreateDateColumn({ ...dateTimeType, ...nowDefault, name: 'created_at' } as ColumnOptions);
export const UpdatedAtColumn = () =>
  UpdateDateColumn({
    ...dateTimeType,
    ...nowDefault,
    ...(isMysql ? { onUpdate: 'CURRENT_TIMESTAMP(3)' } : {}),
    name: 'updated_at',
  } as ColumnOptions);

/** Calendar dates travel as 'YYYY-MM-DD' strings on both engines. */
export const DateColumn = (options: ColumnOptions = {}) => Column({ type: 'date', ...options });

const jsonTransformer: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null || value === undefined ? null : (JSON.parse(value) as unknown)),
};

export const JsonColumn = (options: ColumnOptions = {}) =>
  Column({ type: isMysql ? 'longtext' : 'text', transformer: jsonTransformer, ...options } as ColumnOptions);

export const BlobColumn = (options: ColumnOptions = {}) => Column({ type: isMysql ? 'longblob' : 'blob', ...options } as ColumnOptions);

/** Internal integer keys; BIGINT would come back as strings from mysql2, so INT everywhere ids fit. */
export const IdColumn = (options: ColumnOptions = {}) => Column({ type: 'int', ...options });
