import { expect } from 'chai';
import { interstateRate, isValidNcm, isValidStateRegistration, municipalityCodeMatchesUf } from '../../src/core/br-fiscal';

/* Fiscal identifiers (core/br-fiscal.ts): IE check digits per UF, IBGE codes, NCM, interstate rates. */
describe('br-fiscal: IE, IBGE, NCM, interstate rates', () => {
  // Valid IEs worked by hand with each UF's published rule (Sintegra), and the same with a wrong check digit.
  const valid: [string, string][] = [
    ['SP', '110042490114'],
    ['MG', '0623079040081'],
    ['RJ', '12345674'],
    ['PR', '1234567850'],
    ['RS', '2243658792'],
    ['SC', '251040852'],
    ['BA', '12345663'],
    ['BA', '100000306'],
  ];
  for (const [uf, ie] of valid) {
    it(`${uf} ${ie} is valid; a changed check digit is not`, () => {
      expect(isValidStateRegistration(ie, uf)).to.equal(true);
      const last = Number(ie[ie.length - 1]);
      expect(isValidStateRegistration(ie.slice(0, -1) + String((last + 1) % 10), uf)).to.equal(false);
    });
  }
  it('format only for the other UFs; wrong lengths fail', () => {
    expect(isValidStateRegistration('123456789', 'GO')).to.equal(true);
    expect(isValidStateRegistration('12A', 'GO')).to.equal(false);
    expect(isValidStateRegistration('11004249011', 'SP')).to.equal(false);
  });
  it('IBGE municipality codes start with the UF code; NCM has 8 digits of a real chapter', () => {
    expect(municipalityCodeMatchesUf('3550308', 'SP')).to.equal(true);
    expect(municipalityCodeMatchesUf('3304557', 'SP')).to.equal(false);
    expect(municipalityCodeMatchesUf('355030', 'SP')).to.equal(false);
    expect([isValidNcm('22021000'), isValidNcm('2202100'), isValidNcm('99021000'), isValidNcm('00021000')]).to.deep.equal([
      true,
      false,
      false,
      false,
    ]);
  });
  it('interstate: 4 % imported (Res. SF 13/2012), 7 % S/SE (not ES) → N/NE/CO/ES, else 12 % (Res. SF 22/1989)', () => {
    expect([
      interstateRate('SP', 'BA', 0),
      interstateRate('SP', 'ES', 0),
      interstateRate('SP', 'RJ', 0),
      interstateRate('BA', 'SP', 0),
      interstateRate('ES', 'BA', 0),
    ]).to.deep.equal([7, 7, 12, 12, 12]);
    expect([1, 2, 3, 8, 6, 5].map((o) => interstateRate('SP', 'BA', o))).to.deep.equal([4, 4, 4, 4, 7, 7]);
  });
});
