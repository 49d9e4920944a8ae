import { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';

/** A BR Code the data cannot make (422 BR_CODE_INVALID, naming the field). */
const invalid = (field: string, message: string) => new BusinessRuleError('BR_CODE_INVALID', message, { field });

/*
 * The Pix BR Code (EMV QRCPS-MPM as the Central Bank profiles it: Manual de Padrões para Iniciação
 * do Pix, Anexo I "Padrões para Iniciação do Pix", and the BR Code manual). Each data object is
 * ID (2 digits) + length (2 digits, the value's size in bytes) + value; the last one, 63, carries the
 * CRC16-CCITT (poly 0x1021, init 0xFFFF, no reflection, no final XOR) of the whole payload up to and
 * including "6304", as 4 uppercase hex digits. A static code carries the key (26.01) and, optionally,
 * the amount and a txid of at most 25 alphanumerics (62.05, "***" without one); a dynamic code
 * carries the location URL without "https://" (26.25), is single-use (01 = "12") and its txid and
 * amount are in the payload the payer's PSP fetches from that location (62.05 = "***").
 * docs/decisions/collection-pix.md records the limits and their sources.
 */

export const PIX_GUI = 'br.gov.bcb.pix';
/** EMV limits the whole payload to 512 characters. */
export const MAX_PAYLOAD = 512;
export const MAX_NAME = 25;
export const MAX_CITY = 15;
export const MAX_STATIC_TXID = 25;
/** 26 is one data object: its value (GUI + key or URL + info) holds at most 99 bytes. */
const MAX_TEMPLATE = 99;

export interface StaticBrCode {
  key: string;
  merchantName: string;
  merchantCity: string;
  /** Absent: the payer types the amount. */
  amount?: Dec | null;
  /** Up to 25 of [A-Za-z0-9]; absent → "***". */
  txid?: string | null;
  /** 26.02, shown to the payer (optional). */
  description?: string | null;
  postalCode?: string | null;
}

export interface DynamicBrCode {
  /** The PSP's payload location (`loc.location`), with or without its scheme. */
  location: string;
  merchantName: string;
  merchantCity: string;
  postalCode?: string | null;
}

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

/** One data object; lengths count UTF-8 bytes, and two digits cap a value at 99. */
export function tlv(id: string, value: string): string {
  const length = byteLength(value);
  if (length > 99) throw invalid(id, `BR Code field ${id} is ${length} bytes long (99 at most)`);
  return id + String(length).padStart(2, '0') + value;
}

/** CRC16-CCITT-FALSE over the string's UTF-8 bytes, 4 uppercase hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Name and city as the payer's app shows them: accents folded (São Paulo → Sao Paulo), only printable
 * ASCII kept (the EMV "ans" set, so a byte is a character), spaces collapsed, cut to the limit.
 */
export function normalizeText(value: string, max: number): string {
  const folded = value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return folded.slice(0, max).trim();
}

/** The amount as EMV writes it: dot decimal, two places, no thousands separator, at most 13 characters. */
export function formatAmount(amount: Dec): string {
  if (amount.lte(0)) throw invalid('amount', 'The BR Code amount must be positive');
  const text = amount.toFixed(2);
  if (text.length > 13) throw invalid('amount', 'The BR Code amount has more than 13 characters');
  return text;
}

const TXID = /^[A-Za-z0-9]{1,25}$/;

function merchantTail(name: string, city: string, postalCode?: string | null): string {
  const n = normalizeText(name, MAX_NAME);
  const c = normalizeText(city, MAX_CITY);
  if (!n) throw invalid('merchantName', 'The merchant name is empty once normalized');
  if (!c) throw invalid('merchantCity', 'The merchant city is empty once normalized');
  const cep = postalCode ? postalCode.replace(/\D/g, '') : '';
  return tlv('58', 'BR') + tlv('59', n) + tlv('60', c) + (cep.length === 8 ? tlv('61', cep) : '');
}

function finish(body: string): string {
  const withCrcId = body + '6304';
  const payload = withCrcId + crc16(withCrcId);
  if (payload.length > MAX_PAYLOAD) throw invalid('payload', `The BR Code is ${payload.length} characters long (${MAX_PAYLOAD} at most)`);
  return payload;
}

function accountTemplate(parts: string): string {
  if (byteLength(parts) > MAX_TEMPLATE) {
    throw invalid('26', 'The Pix key and description do not fit the 99 bytes of field 26');
  }
  return tlv('26', parts);
}

export function staticBrCode(input: StaticBrCode): string {
  const key = input.key.trim();
  if (!key) throw invalid('key', 'The Pix key is required');
  const txid = input.txid ?? '***';
  if (txid !== '***' && !TXID.test(txid)) {
    throw invalid('txid', 'A static txid is 1 to 25 letters or digits');
  }
  const description = input.description ? normalizeText(input.description, 72) : '';
  let account = tlv('00', PIX_GUI) + tlv('01', key);
  if (description) {
    // The description gives way to the key: cut to what field 26 still holds.
    const room = MAX_TEMPLATE - byteLength(account) - 4;
    if (room > 0) account += tlv('02', description.slice(0, room).trim());
  }
  const body =
    tlv('00', '01') +
    accountTemplate(account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    (input.amount ? tlv('54', formatAmount(input.amount)) : '') +
    merchantTail(input.merchantName, input.merchantCity, input.postalCode) +
    tlv('62', tlv('05', txid));
  return finish(body);
}

export function dynamicBrCode(input: DynamicBrCode): string {
  const location = input.location.trim().replace(/^https:\/\//i, '');
  if (!location || /^[a-z]+:\/\//i.test(location)) {
    throw invalid('location', 'The payload location is an https URL');
  }
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    accountTemplate(tlv('00', PIX_GUI) + tlv('25', location)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    merchantTail(input.merchantName, input.merchantCity, input.postalCode) +
    tlv('62', tlv('05', '***'));
  return finish(body);
}
