import Joi from 'joi';
import { named, obj } from '../../core/http/response-schema';

/* Response bodies of the accountant's package routes (the ZIP itself is binary). */

export const PackageSent = named(
  'PackageSent',
  obj({
    period: Joi.string().example('2026-11'),
    to: Joi.string().example('escritorio@contabilidade.com.br'),
    fileName: Joi.string().example('12345678000195-202611-pacote-contabil.zip'),
    bytes: Joi.number().integer().example(48213),
    sha256: Joi.string().example('9f2c1a0e5b7d4c3f8a6e2b1d0c9f8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e'),
    complete: Joi.boolean().description('false while the manifest lists blocking findings'),
    relay: Joi.string().example('smtp.mercado.com.br:587').description('the relay it went through'),
  }),
);
