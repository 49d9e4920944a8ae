import { expect } from 'chai';
import fc from 'fast-check';
import {
  accessKeyBase,
  accessKeyCheckDigit,
  accessKeyFieldMismatches,
  buildAccessKey,
  hasValidCheckDigit,
  isAvulsaSeries,
} from '../../../src/modules/fiscal-xml/access-key';

// A real, public key (fixture procNFe-v400-prod-sc-csosn202-icmsst.xml) and its fields.
const REAL = '42200823155000000166550010000062561182910239';
const REAL_FIELDS = {
  ufCode: '42',
  issuedAt: '2020-08-20T08:10:00-03:00',
  issuerDocument: '23155000000166',
  model: '55',
  series: '1',
  number: '6256',
  emissionType: '1',
  randomCode: '18291023',
};

describe('nfe/xml: access key', () => {
  it('computes the mod-11 check digit of a real key', () => {
    expect(accessKeyCheckDigit(REAL.slice(0, 43))).to.equal(9);
    expect(hasValidCheckDigit(REAL)).to.equal(true);
  });

  it('rejects a wrong check digit, a short key and non-digits', () => {
    expect(hasValidCheckDigit(`${REAL.slice(0, 43)}8`)).to.equal(false);
    expect(hasValidCheckDigit(REAL.slice(0, 43))).to.equal(false);
    expect(hasValidCheckDigit(`${REAL.slice(0, 42)}A9`)).to.equal(false);
  });

  it('follows the mod-11 rule for any 43 digits (weights 2..9 from the right; remainder 0 or 1 → 0)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{43}$/), (base) => {
        const dv = accessKeyCheckDigit(base);
        expect(dv).to.be.within(0, 9);
        let sum = 0;
        let w = 2;
        for (let i = 42; i >= 0; i--) {
          sum += Number(base[i]) * w;
          w = w === 9 ? 2 : w + 1;
        }
        expect(dv).to.equal(sum % 11 < 2 ? 0 : 11 - (sum % 11));
      }),
      { numRuns: 200 },
    );
  });

  it('builds the key from cUF, AAMM (from dhEmi as written), CNPJ, mod, serie, nNF, tpEmis, cNF', () => {
    expect(buildAccessKey(REAL_FIELDS)).to.equal(REAL);
    expect(accessKeyFieldMismatches(REAL, REAL_FIELDS)).to.deep.equal([]);
  });

  it('takes the year and month from the text, not from a UTC conversion', () => {
    // 23:30 at -03:00 on 31 January is February in UTC; the key keeps January.
    const base = accessKeyBase({ ...REAL_FIELDS, issuedAt: '2024-01-31T23:30:00-03:00' });
    expect(base!.slice(2, 6)).to.equal('2401');
  });

  it('pads a CPF emitter to 14 digits', () => {
    const key = buildAccessKey({ ...REAL_FIELDS, issuerDocument: '06998806612' });
    expect(key.slice(6, 20)).to.equal('00006998806612');
  });

  it('names the fields a key does not match', () => {
    expect(accessKeyFieldMismatches(REAL, { ...REAL_FIELDS, number: '6257', randomCode: '18291024' })).to.deep.equal(['nNF', 'cNF']);
    expect(accessKeyFieldMismatches(REAL, { ...REAL_FIELDS, issuerDocument: '11222333000181' })).to.deep.equal(['emitter document']);
  });

  it('NF-e avulsa (series 890–899) carries the authority CNPJ: the emitter document is not compared', () => {
    expect(isAvulsaSeries('890')).to.equal(true);
    expect(isAvulsaSeries('899')).to.equal(true);
    expect(isAvulsaSeries('1')).to.equal(false);
    const key = buildAccessKey({ ...REAL_FIELDS, series: '890', issuerDocument: '16907746000113' });
    expect(accessKeyFieldMismatches(key, { ...REAL_FIELDS, series: '890', issuerDocument: '06998806612' })).to.deep.equal([]);
  });

  it('a field that cannot fit its width makes no key', () => {
    expect(accessKeyBase({ ...REAL_FIELDS, number: '1234567890' })).to.equal(null);
    expect(() => buildAccessKey({ ...REAL_FIELDS, model: 'X' })).to.throw();
  });

  it('an alphanumeric emitter CNPJ: the key carries it and its check digit weighs each character as ASCII − 48', () => {
    const fields = { ...REAL_FIELDS, issuerDocument: '12ABC34501DE35' };
    const key = buildAccessKey(fields);
    expect(key.slice(6, 20)).to.equal('12ABC34501DE35');
    expect(hasValidCheckDigit(key)).to.equal(true);
    expect(accessKeyFieldMismatches(key, fields)).to.deep.equal([]);
    // By hand: weights 2..9 from the right over the values ASCII − 48 ('A' = 17, 'B' = 18 …).
    let sum = 0;
    let w = 2;
    for (let i = 42; i >= 0; i--) {
      sum += (key.charCodeAt(i) - 48) * w;
      w = w === 9 ? 2 : w + 1;
    }
    expect(Number(key[43])).to.equal(sum % 11 < 2 ? 0 : 11 - (sum % 11));
    // Letters belong only to the CNPJ positions; lower case is not the layout's.
    expect(hasValidCheckDigit(`${key.slice(0, 5)}A${key.slice(6)}`)).to.equal(false);
    expect(hasValidCheckDigit(key.toLowerCase())).to.equal(false);
    expect(accessKeyFieldMismatches(key, REAL_FIELDS)).to.deep.equal(['emitter document']);
  });

  it('a key built for any alphanumeric emitter verifies', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{12}$/), (cnpjBase) => {
        const key = buildAccessKey({ ...REAL_FIELDS, issuerDocument: `${cnpjBase}00` });
        expect(hasValidCheckDigit(key)).to.equal(true);
      }),
      { numRuns: 200 },
    );
  });
});
