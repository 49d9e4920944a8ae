import crypto from 'node:crypto';
import { sefazConfig } from '../../../core/config/sefaz';

/*
 * AES-256-GCM with the configured CERT_ENCRYPTION_KEY. The additional data binds a ciphertext to its
 * company and filial, so a sealed certificate copied onto another filial's row does not open.
 */
const IV = 12;
const TAG = 16;

export function seal(plaintext: Buffer, binding: string, key = sefazConfig.certificateKey): Buffer {
  const iv = crypto.randomBytes(IV);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(binding));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function open(sealed: Buffer, binding: string, key = sefazConfig.certificateKey): Buffer {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV));
  decipher.setAAD(Buffer.from(binding));
  decipher.setAuthTag(sealed.subarray(IV, IV + TAG));
  return Buffer.concat([decipher.update(sealed.subarray(IV + TAG)), decipher.final()]);
}
