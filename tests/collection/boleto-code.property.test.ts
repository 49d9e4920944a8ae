import { expect } from 'chai';
import { addCalendarDays } from '../../src/core/business-date';
import { Dec } from '../../src/core/decimal';
import { mod10 } from '../../src/modules/collection/banks/check-digits';
import { AccountData, BANK_CODES, BankCode, BANKS } from '../../src/modules/collection/banks/banks';
import { boletoCode, decodeBoleto, dueDateFactor, dueDateOfFactor } from '../../src/modules/collection/banks/barcode';

/*
 * Boleto barcode and linha digitável (issue 46 "Done when"): fixed vectors from other libraries'
 * test suites (pyboleto, before the 2025 factor reset), the factor around 2025-02-22, and 1,000
 * generated titles across the six banks with due dates on both sides of 2025-02-22 that decode back
 * (bank, value, due date, every check digit, the nosso número at the bank's positions).
 */

const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('Boleto code: factor, barcode, linha digitável', () => {
  it('the due-date factor: 1000 on 2000-07-03, 9999 on 2025-02-21, 1000 again on 2025-02-22, read back near a reference', () => {
    expect(dueDateFactor('2000-07-03')).to.equal('1000');
    expect(dueDateFactor('2011-03-09')).to.equal('4901');
    expect(dueDateFactor('2025-02-21')).to.equal('9999');
    expect(dueDateFactor('2025-02-22')).to.equal('1000');
    expect(dueDateFactor('2025-02-23')).to.equal('1001');
    expect(dueDateOfFactor('1000', '2025-02-01')).to.equal('2025-02-22');
    expect(dueDateOfFactor('9999', '2025-03-01')).to.equal('2025-02-21');
    expect(dueDateOfFactor('1000', '2000-08-01')).to.equal('2000-07-03');
    expect(dueDateOfFactor('0000', '2025-03-01')).to.equal(null);
  });

  it('matches the published vectors of other implementations (Itaú 175, Bradesco 06, Santander 102)', () => {
    const itau: AccountData = {
      bankCode: '341',
      agency: '1565',
      agencyDigit: null,
      account: '13877',
      accountDigit: '1',
      carteira: '175',
      beneficiaryCode: null,
    };
    const itauCode = boletoCode(
      '341',
      '2011-03-09',
      new Dec('2952.95'),
      BANKS['341'].campoLivre(itau, BANKS['341'].nossoNumero(itau, 12345678)),
    );
    expect(itauCode.digitableLine).to.equal('34191751243456786156151387710000349010000295295');
    const bradesco: AccountData = {
      bankCode: '237',
      agency: '0278',
      agencyDigit: '0',
      account: '0039232',
      accountDigit: '4',
      carteira: '06',
      beneficiaryCode: null,
    };
    const bradescoCode = boletoCode(
      '237',
      '2011-02-05',
      new Dec('8280.00'),
      BANKS['237'].campoLivre(bradesco, BANKS['237'].nossoNumero(bradesco, 2125525)),
    );
    expect(bradescoCode.barcode).to.equal('23794486900008280000278060000212552500392320');
    expect(bradescoCode.digitableLine).to.equal('23790278046000021255925003923205448690000828000');
    const santander: AccountData = {
      bankCode: '033',
      agency: '1333',
      agencyDigit: null,
      account: '00707077',
      accountDigit: '0',
      carteira: '102',
      beneficiaryCode: '0707077',
    };
    const santanderCode = boletoCode(
      '033',
      '2012-01-22',
      new Dec('2952.95'),
      BANKS['033'].campoLivre(santander, BANKS['033'].nossoNumero(santander, 1234567)),
    );
    expect(santanderCode.digitableLine).to.equal('03399070730770000012334567901029652200000295295');
  });

  /** Where each bank's campo livre carries the nosso número (and what else it must hold), read independently of the builders. */
  const NN_IN_CAMPO_LIVRE: Record<BankCode, (cl: string, a: AccountData) => { nn: string; dv: string }> = {
    '001': (cl, a) => {
      expect(cl.slice(0, 6)).to.equal('000000');
      expect(cl.slice(23)).to.equal(a.carteira);
      return { nn: cl.slice(6, 23), dv: '' };
    },
    '341': (cl, a) => {
      expect(cl.slice(0, 3)).to.equal(a.carteira);
      expect(cl.slice(12, 21)).to.equal(a.agency + a.account);
      expect(Number(cl[21])).to.equal(mod10(a.agency + a.account));
      expect(cl.slice(22)).to.equal('000');
      return { nn: cl.slice(3, 11), dv: cl[11] };
    },
    '237': (cl, a) => {
      expect(cl.slice(0, 6)).to.equal(a.agency + a.carteira);
      expect(cl.slice(17)).to.equal(a.account + '0');
      return { nn: cl.slice(6, 17), dv: '' };
    },
    '033': (cl, a) => {
      expect(cl[0] + cl.slice(1, 8)).to.equal('9' + a.beneficiaryCode);
      expect(cl.slice(21)).to.equal('0' + a.carteira);
      return { nn: cl.slice(8, 20), dv: cl[20] };
    },
    '104': (cl, a) => {
      expect(cl.slice(0, 6)).to.equal(a.beneficiaryCode);
      return { nn: cl[10] + cl[14] + cl.slice(7, 10) + cl.slice(11, 14) + cl.slice(15, 24), dv: '' };
    },
    '756': (cl, a) => {
      expect(cl.slice(0, 7)).to.equal(a.carteira + a.agency + '01');
      expect(cl.slice(7, 14)).to.equal(a.beneficiaryCode);
      expect(cl.slice(22)).to.equal('001');
      return { nn: cl.slice(14, 21), dv: cl[21] };
    },
  };
  const CARTEIRAS: Record<BankCode, string[]> = {
    '001': ['17', '18'],
    '341': ['109', '112', '157', '126'],
    '237': ['09', '06'],
    '033': ['101', '102'],
    '104': ['RG'],
    '756': ['1'],
  };

  it('1,000 generated titles across the six banks, due dates on both sides of 2025-02-22, decode back', () => {
    const rnd = seeded(46);
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
    const counts: Record<string, number> = {};
    let beforeReset = 0;
    for (let i = 0; i < 1000; i++) {
      const bankCode = BANK_CODES[i % BANK_CODES.length];
      const rule = BANKS[bankCode];
      const agency = digits(4);
      const account = digits(rule.accountLength);
      const a: AccountData = {
        bankCode,
        agency,
        agencyDigit: rule.agencyDigit ? rule.agencyDigit(agency) : null,
        account,
        accountDigit: rule.accountDigit(agency, account),
        carteira: CARTEIRAS[bankCode][Math.floor(rnd() * CARTEIRAS[bankCode].length)],
        beneficiaryCode: rule.beneficiaryCodeLength ? digits(rule.beneficiaryCodeLength) : null,
      };
      const sequence = 1 + Math.floor(rnd() * Math.min(rule.maxSequence, 2_147_483_647));
      const amount = new Dec(Math.floor(rnd() * 10 ** (1 + Math.floor(rnd() * 10)))).div(100);
      const dueDate = addCalendarDays('2023-06-01', Math.floor(rnd() * 1400)); // 2023-06 … 2027-04
      if (dueDate < '2025-02-22') beforeReset++;
      const issueDate = addCalendarDays(dueDate, -Math.floor(rnd() * 120));
      const nn = rule.nossoNumero(a, sequence);
      const code = boletoCode(bankCode, dueDate, amount, rule.campoLivre(a, nn));
      expect(code.barcode).to.match(/^\d{44}$/);
      expect(code.digitableLine).to.match(/^\d{47}$/);
      for (const form of [code.barcode, code.digitableLine]) {
        const back = decodeBoleto(form, issueDate);
        expect(back.bankCode).to.equal(bankCode);
        expect(back.amount.toFixed(2)).to.equal(amount.toFixed(2));
        expect(back.dueDate, `${bankCode} ${dueDate} from ${issueDate}`).to.equal(dueDate);
        const inside = NN_IN_CAMPO_LIVRE[bankCode](back.campoLivre, a);
        expect(inside.nn).to.equal(nn.number);
        if (inside.dv) expect(inside.dv).to.equal(nn.dv);
      }
      // A changed digit in fields 1–4 is always caught (módulo 10 catches every single substitution; the
      // general DV then disagrees). Field 5 (factor, value) relies on the general DV alone, whose
      // FEBRABAN folding of 0/1/10 into 1 lets a few substitutions through: not asserted there.
      const pos = Math.floor(rnd() * 33);
      const broken =
        code.digitableLine.slice(0, pos) + String((Number(code.digitableLine[pos]) + 1) % 10) + code.digitableLine.slice(pos + 1);
      expect(() => decodeBoleto(broken, issueDate), `altered position ${pos}`).to.throw();
      counts[bankCode] = (counts[bankCode] ?? 0) + 1;
    }
    expect(Object.keys(counts)).to.have.length(6);
    expect(beforeReset).to.be.within(150, 700);
  });

  it('nosso número check digits per bank (Bradesco P, Santander/Caixa mod 11, Sicoob 3197, Itaú DAC)', () => {
    const base: AccountData = {
      bankCode: '237',
      agency: '0278',
      agencyDigit: '0',
      account: '0039232',
      accountDigit: '4',
      carteira: '19',
      beneficiaryCode: null,
    };
    // Bradesco manual example: carteira 19, NN 00000000002 → DV 8.
    expect(BANKS['237'].nossoNumero(base, 2).dv).to.equal('8');
    expect(BANKS['341'].nossoNumero({ ...base, bankCode: '341', agency: '0057', account: '12345', carteira: '110' }, 12345678).dv).to.equal(
      '8',
    );
    expect(BANKS['104'].nossoNumero({ ...base, bankCode: '104' }, 1).number).to.have.length(17);
    // 0001 · 0000000009 · 0000021 by 3,1,9,7…: 1×7 + 9×1 + 2×7 + 1×3 = 33, remainder 0 → DV 0; NN 0000022: 7 + 9 + 14 + 6 = 36, remainder 3 → 8.
    const sicoob = { ...base, bankCode: '756' as const, agency: '0001', beneficiaryCode: '0000009', carteira: '1' };
    expect(BANKS['756'].nossoNumero(sicoob, 21)).to.deep.equal({ number: '0000021', dv: '0', printed: '0000021-0' });
    expect(BANKS['756'].nossoNumero(sicoob, 22).dv).to.equal('8');
  });
});
