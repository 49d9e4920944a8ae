import { expect } from 'chai';
import fc from 'fast-check';
import { cnpjWithCheckDigits, documentSearchPrefix, isValidCnpj, normalizeDocument } from '../../src/core/br-documents';

/** The CNPJ rule as it was before the alphanumeric format (digits only): numeric CNPJs must keep validating exactly so. */
function numericCnpjValid(d: string): boolean {
  if (!/^\d{14}$/.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  const calc = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = weights.reduce((acc, w, i) => acc + w * Number(d[i]), 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return calc(12) === Number(d[12]) && calc(13) === Number(d[13]);
}

describe('core/br-documents: CPF and CNPJ, numeric and alphanumeric', () => {
  it("validates the federal revenue's alphanumeric examples (ASCII − 48 per character)", () => {
    expect(cnpjWithCheckDigits('12ABC34501DE')).to.equal('12ABC34501DE35');
    expect(isValidCnpj('12.ABC.345/01DE-35')).to.equal(true);
    // The emitter of the synthetic fixture reforma/NFe-v400-cnpj-alfanumerico-SINTETICO-sem-assinatura.xml.
    expect(isValidCnpj('XT9CDVWJ000172')).to.equal(true);
    expect(isValidCnpj('12ABC34501DE36')).to.equal(false);
    expect(isValidCnpj('12ABC34501D!35')).to.equal(false);
  });

  it('normalizes to upper case without separators; check digits stay numeric', () => {
    expect(normalizeDocument('12.abc.345/01de-35')).to.equal('12ABC34501DE35');
    expect(normalizeDocument('12ABC34501DE35', 'cnpj')).to.equal('12ABC34501DE35');
    expect(normalizeDocument('12ABC34501DE35', 'cpf')).to.equal(null);
    expect(normalizeDocument('12ABC34501DEA5')).to.equal(null);
    expect(normalizeDocument('12ABC34501DE35;')).to.equal(null);
  });

  it('numeric CNPJs and CPFs validate exactly as before', () => {
    expect(normalizeDocument('11.222.333/0001-81')).to.equal('11222333000181');
    expect(normalizeDocument('529.982.247-25')).to.equal('52998224725');
    expect(normalizeDocument('11111111111111')).to.equal(null);
    fc.assert(
      fc.property(fc.stringMatching(/^\d{14}$/), (d) => {
        expect(isValidCnpj(d)).to.equal(numericCnpjValid(d));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12}$/), (base) => {
        expect(numericCnpjValid(cnpjWithCheckDigits(base)) || /^(\d)\1{11}$/.test(base)).to.equal(true);
      }),
    );
  });

  it('any 12 characters A–Z/0–9 complete to a valid CNPJ, kept as given', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{12}$/), (base) => {
        const cnpj = cnpjWithCheckDigits(base);
        if (/^(\d)\1{13}$/.test(cnpj)) return;
        expect(normalizeDocument(cnpj.toLowerCase())).to.equal(cnpj);
      }),
      { numRuns: 500 },
    );
  });

  it('reads a search term as a document prefix only when it has a digit', () => {
    expect(documentSearchPrefix('12.abc')).to.equal('12ABC');
    expect(documentSearchPrefix('237.657')).to.equal('237657');
    expect(documentSearchPrefix('ACME')).to.equal(null);
    expect(documentSearchPrefix('12')).to.equal(null);
    expect(documentSearchPrefix('Café 12')).to.equal(null);
  });
});
