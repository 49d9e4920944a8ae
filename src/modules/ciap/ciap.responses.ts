import Joi from 'joi';
import { date, hashid, money, named, obj, oneOf, page, timestamp } from '../../core/http/response-schema';
import { CIAP_ASSET_STATUSES } from './entities/ciap-asset.entity';
import { CIAP_PART_STATUSES } from './entities/ciap-part.entity';

/* Response bodies of /ciap (mirrors ciap.mapper.ts). */

const month = () => Joi.string().example('2026-11');

const assetKeys = {
  id: hashid('ciap-asset'),
  filialId: hashid('filial'),
  entryDocumentId: hashid('entry-document'),
  lineNumber: Joi.number().integer().example(1),
  description: Joi.string().example('Balcão refrigerado 2 m'),
  ncm: Joi.string().allow(null).example('84185090'),
  entryCfop: Joi.string().example('1551'),
  documentNumber: Joi.string().example('4512'),
  accessKey: Joi.string().allow(null).example('35261112345678000195550010000045121123456780'),
  supplierDocument: Joi.string().example('12345678000195'),
  entryDate: date(),
  firstMonth: month().description('the month of the first part (the entry month)'),
  icms: obj({
    own: money().description('VL_IMOB_ICMS_OP: the item’s vICMS'),
    st: money().description('VL_IMOB_ICMS_ST: the item’s vICMSST'),
    freight: money().description('VL_IMOB_ICMS_FRT: ICMS of CT-e freight onto the item (0: see tax-law-rows.md row 9)'),
    difal: money().description('VL_IMOB_ICMS_DIF: DIFAL paid by the buyer (0: see tax-law-rows.md row 9)'),
  }),
  totalCredit: money().description('the credit spread over the parts: own + ST + freight + DIFAL'),
  partCount: Joi.number().integer().example(48),
  status: oneOf(...CIAP_ASSET_STATUSES).description('ACTIVE, or CANCELLED with its entry (parts not yet appropriated dropped)'),
  cancelledAt: timestamp().allow(null),
  cancelReason: Joi.string().allow(null),
  partsAppropriated: Joi.number().integer().example(3),
  partsPending: Joi.number().integer().example(45),
  partsDropped: Joi.number().integer().example(0),
  credited: money().description('Σ credited by the months appropriated so far'),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
};

export const CiapAsset = named('CiapAsset', obj(assetKeys));

export const CiapAssetPage = page('CiapAssetPage', CiapAsset);

const Part = obj({
  number: Joi.number().integer().example(1).description('G125 NUM_PARC, 1..48'),
  month: month(),
  amount: money().description('1/48 of the credit (the last takes the cents’ residue)'),
  status: oneOf(...CIAP_PART_STATUSES),
  credited: money().allow(null).description('part × the month’s taxed exits / total exits, once appropriated'),
});

const Appropriation = obj({
  filialId: hashid('filial'),
  month: month(),
  taxedExits: money().description('G126 VL_TRIB_EXP: taxed exits and exports of the month'),
  totalExits: money().description('G126 VL_TOTAL: every regular exit of the month'),
  exitShare: Joi.number().example(0.8).description('taxed / total, 8 places (G126 IND_PER_SAI)'),
  partsTotal: money().description('G126 SOM_PARC: Σ the parts booked'),
  credited: money().description('G126 VL_PARC_APROP: Σ credited'),
  partCount: Joi.number().integer().example(2),
  source: Joi.string().description('where the exits were read'),
  createdBy: Joi.string().example('maria.souza'),
  createdAt: timestamp(),
});

export const CiapAssetDetail = named(
  'CiapAssetDetail',
  obj({
    ...assetKeys,
    parts: Joi.array().items(Part),
    appropriations: Joi.array().items(Appropriation).description('the months that booked parts of the asset'),
  }),
);

export const CiapAppropriation = named(
  'CiapAppropriation',
  obj({
    appropriation: Appropriation,
    booked: Joi.number().integer().example(2).description('parts this call booked; 0 when the month’s parts were already booked'),
    revised: Joi.boolean().description(
      'whether this call brought the month’s share up to the fiscal books (a document of the month issued or cancelled since the last call); false and booked 0: nothing changed',
    ),
    parts: Joi.array().items(
      obj({
        assetId: hashid('ciap-asset'),
        description: Joi.string(),
        number: Joi.number().integer(),
        amount: money(),
        credited: money(),
      }),
    ),
  }),
);
