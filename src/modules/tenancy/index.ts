/*
 * The tenancy module's front door: what other modules may use of it. The filial access check (every
 * module with a filial in its path or body runs it) and the Filial row it answers.
 */
export { acceptFilial, assertFilialAccess, filialRead, requestFilial } from './filial-access';
export type { Filial } from './entities/filial.entity';
