import type { EntityManager } from 'typeorm';
import { compactStateRegistration, isUf, isValidNcm, isValidStateRegistration, municipalityCodeMatchesUf } from '../../core/br-fiscal';
import { FieldError, ValidationError } from '../../core/errors';
import { taxGroupLookup } from './catalog.ports';
import type { Customer } from './entities/customer.entity';

/*
 * The fiscal fields of products and customers (SPEC §1, §12): checks that need more than one field
 * (IE against the address's UF, cMun against the UF, indIEDest against the IE) run on the merged
 * record, before anything is written; a failure is 400 naming the field.
 */

export interface AddressInput {
  street: string;
  number: string;
  complement?: string | null;
  district: string;
  municipalityCode: string;
  municipalityName: string;
  uf: string;
  postalCode?: string | null;
  countryCode?: string;
  countryName?: string;
}

/** The customer's address columns from the API's `address` object (null clears them). */
export function addressColumns(address: AddressInput | null): Partial<Customer> {
  if (address === null) {
    return {
      addressStreet: null,
      addressNumber: null,
      addressComplement: null,
      addressDistrict: null,
      municipalityCode: null,
      municipalityName: null,
      uf: null,
      postalCode: null,
    };
  }
  return {
    addressStreet: address.street,
    addressNumber: address.number,
    addressComplement: address.complement ?? null,
    addressDistrict: address.district,
    municipalityCode: address.municipalityCode,
    municipalityName: address.municipalityName,
    uf: address.uf,
    postalCode: address.postalCode ?? null,
    ...(address.countryCode !== undefined ? { countryCode: address.countryCode } : {}),
    ...(address.countryName !== undefined ? { countryName: address.countryName } : {}),
  };
}

type CustomerFiscal = Pick<
  Customer,
  'personType' | 'document' | 'ieIndicator' | 'stateRegistration' | 'municipalityCode' | 'uf' | 'countryCode'
> & { finalConsumer?: boolean | null };

/** Checks a customer's fiscal fields as they will be stored; throws 400 naming each bad field. */
export function checkCustomerFiscal(c: CustomerFiscal): void {
  const errors: FieldError[] = [];
  if (c.uf !== null && !isUf(c.uf)) errors.push({ path: 'address.uf', message: `${c.uf} is not a UF` });
  else if (c.uf !== null && c.municipalityCode !== null && !municipalityCodeMatchesUf(c.municipalityCode, c.uf)) {
    errors.push({
      path: 'address.municipalityCode',
      message: `${c.municipalityCode} is not an IBGE municipality code of ${c.uf} (7 digits starting with the UF's code)`,
    });
  }
  if (c.personType === 'PF' && c.document && c.document.length !== 11)
    errors.push({ path: 'personType', message: 'a PF customer has a CPF' });
  if (c.personType === 'PJ' && c.document && c.document.length !== 14)
    errors.push({ path: 'personType', message: 'a PJ customer has a CNPJ' });
  if (c.ieIndicator === 1 && !c.stateRegistration)
    errors.push({ path: 'stateRegistration', message: 'a contributor (ieIndicator 1) needs its IE' });
  if (c.ieIndicator === 2 && c.stateRegistration)
    errors.push({ path: 'stateRegistration', message: 'an exempt contributor (ieIndicator 2) has no IE' });
  // NF-e rule 696 (MOC 7.0): an operation with a non-contributor is an operation with a final consumer.
  if (c.ieIndicator === 9 && c.finalConsumer === false)
    errors.push({ path: 'finalConsumer', message: 'a non-contributor (ieIndicator 9) is a final consumer' });
  if (c.stateRegistration) {
    if (!c.uf) errors.push({ path: 'address.uf', message: 'the IE is checked against the address’s UF' });
    else if (isUf(c.uf) && !isValidStateRegistration(c.stateRegistration, c.uf))
      errors.push({ path: 'stateRegistration', message: `${c.stateRegistration} is not a valid IE of ${c.uf} (format or check digits)` });
  }
  if (errors.length)
    throw new ValidationError(
      'Invalid fiscal data',
      errors,
      errors.some((e) => e.path === 'stateRegistration') ? 'INVALID_STATE_REGISTRATION' : 'INVALID_FISCAL_DATA',
    );
}

export const normalizeIe = (ie: string | null | undefined) =>
  ie === undefined ? undefined : ie === null ? null : compactStateRegistration(ie);

/** NCM (8 digits of a real chapter) and the tax group (one of the company's) of a product. */
export async function checkProductFiscal(
  em: EntityManager,
  companyId: number,
  input: { ncm?: string | null; taxGroupId?: number | null },
): Promise<void> {
  if (input.ncm && !isValidNcm(input.ncm))
    throw new ValidationError(
      'Invalid NCM',
      [{ path: 'ncm', message: `${input.ncm} is not an NCM (8 digits of a chapter 01–97)` }],
      'INVALID_NCM',
    );
  if (
    input.taxGroupId !== undefined &&
    input.taxGroupId !== null &&
    !(await taxGroupLookup.get().exists(em, companyId, input.taxGroupId))
  ) {
    throw new ValidationError(
      'Unknown tax group',
      [{ path: 'taxGroupId', message: 'not a tax group of the company' }],
      'TAX_GROUP_NOT_FOUND',
    );
  }
}
