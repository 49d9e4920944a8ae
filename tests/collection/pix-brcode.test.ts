import { expect } from 'chai';
import fc from 'fast-check';
import { Dec } from '../../src/core/decimal';
import { crc16, dynamicBrCode, normalizeText, staticBrCode } from '../../src/modules/collection/pix-brcode';
import { parseBrCode } from './support/emv-reader';

/*
 * BR Code payloads (EMV QRCPS-MPM, the Central Bank's Pix profile): every generated payload parses
 * with the independent reader, its CRC checks, and its fields keep the manual's order and limits.
 */
describe('Pix BR Code (EMV QRCPS-MPM, CRC16)', () => {
  it("gives the BCB manual's CRC for its example payload", () => {
    const body =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
    expect(crc16(body)).to.equal('1D3D');
    const built = staticBrCode({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' });
    expect(built).to.equal(body + '1D3D');
    expect(parseBrCode(built).crcOk).to.equal(true);
  });

  it('pads the CRC to four hex digits and refuses a changed byte', () => {
    // A payload whose CRC starts with zero must still carry four digits.
    let found = '';
    for (let i = 0; i < 5000 && !found; i++) {
      const p = staticBrCode({ key: `chave${i}@example.com`, merchantName: 'Loja', merchantCity: 'Recife' });
      if (p.slice(-4).startsWith('0')) found = p;
    }
    expect(found).to.match(/6304[0-9A-F]{4}$/);
    expect(parseBrCode(found).crcOk).to.equal(true);
    const tampered = found.replace('Loja', 'Lojb');
    expect(parseBrCode(tampered).crcOk).to.equal(false);
  });

  it('folds accents and cuts name (25) and city (15), counting bytes', () => {
    expect(normalizeText('  Padaria   Pão Quente  Ltda ME — filial São João', 25)).to.equal('Padaria Pao Quente Ltda M');
    expect(normalizeText('São José dos Campos', 15)).to.equal('Sao Jose dos Ca');
    const p = parseBrCode(
      staticBrCode({ key: '+5511999998888', merchantName: 'Açougue e Mercearia Irmãos Ñandú', merchantCity: 'Florianópolis' }),
    );
    expect(p.fields['59']).to.equal('Acougue e Mercearia Irmao');
    expect(p.fields['60']).to.equal('Florianopolis');
    expect(p.crcOk).to.equal(true);
  });

  it('writes a dynamic code with the location, single use, *** as txid and no amount', () => {
    const payload = dynamicBrCode({
      location: 'https://psp.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
      merchantName: 'Mercearia Boa Vista',
      merchantCity: 'São Paulo',
    });
    const p = parseBrCode(payload);
    expect(p.crcOk).to.equal(true);
    expect(p.order).to.deep.equal(['00', '01', '26', '52', '53', '58', '59', '60', '62', '63']);
    expect(p.fields['01']).to.equal('12');
    expect(p.account).to.deep.equal({ '00': 'br.gov.bcb.pix', '25': 'psp.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25' });
    expect(p.additional).to.deep.equal({ '05': '***' });
    expect(p.fields['54']).to.equal(undefined);
  });

  it('refuses what the manual forbids (422 BR_CODE_INVALID naming the field)', () => {
    const base = { key: 'loja@example.com', merchantName: 'Loja', merchantCity: 'Recife' };
    const fieldOf = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (
          (err as { code: string; extensions: { field: string } }).code + ':' + (err as { extensions: { field: string } }).extensions.field
        );
      }
      return 'none';
    };
    expect(fieldOf(() => staticBrCode({ ...base, txid: 'com espaço' }))).to.equal('BR_CODE_INVALID:txid');
    expect(fieldOf(() => staticBrCode({ ...base, txid: 'A'.repeat(26) }))).to.equal('BR_CODE_INVALID:txid');
    expect(fieldOf(() => staticBrCode({ ...base, amount: new Dec(0) }))).to.equal('BR_CODE_INVALID:amount');
    expect(fieldOf(() => staticBrCode({ ...base, amount: new Dec('12345678901.00') }))).to.equal('BR_CODE_INVALID:amount');
    expect(fieldOf(() => staticBrCode({ ...base, key: 'k'.repeat(78) }))).to.equal('BR_CODE_INVALID:26');
    expect(fieldOf(() => staticBrCode({ ...base, merchantName: 'ção'.replace(/./g, '\u0301') }))).to.equal('BR_CODE_INVALID:merchantName');
    expect(fieldOf(() => dynamicBrCode({ ...base, location: 'http://psp.example.com/x' }))).to.equal('BR_CODE_INVALID:location');
  });

  it('property: any static or dynamic payload parses, CRC-checks and keeps the limits', () => {
    const text = fc
      .string({ unit: fc.constantFrom(...'abcdeãçéíõúÁÉ ÑñßXYZ-.&0123456789'.split('')), minLength: 1, maxLength: 60 })
      .filter((s) => normalizeText(s, 25) !== '');
    const key = fc.oneof(
      fc.uuid(),
      fc.emailAddress().filter((e) => e.length <= 77),
      fc.stringMatching(/^\+55\d{11}$/),
      fc.stringMatching(/^\d{11}$/),
    );
    const cents = fc.option(fc.integer({ min: 1, max: 99_999_999_99 }), { nil: undefined });
    const txid = fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), { nil: undefined });
    fc.assert(
      fc.property(key, text, text, cents, txid, fc.option(text, { nil: undefined }), (k, name, city, c, t, description) => {
        const amount = c === undefined ? undefined : new Dec(c).div(100);
        const payload = staticBrCode({ key: k, merchantName: name, merchantCity: city, amount, txid: t, description });
        const p = parseBrCode(payload);
        expect(p.crcOk, payload).to.equal(true);
        expect(payload.length).to.be.at.most(512);
        expect(p.fields['00']).to.equal('01');
        expect(p.fields['52']).to.equal('0000');
        expect(p.fields['53']).to.equal('986');
        expect(p.fields['58']).to.equal('BR');
        expect(p.account['00']).to.equal('br.gov.bcb.pix');
        expect(p.account['01']).to.equal(k);
        expect(Buffer.byteLength(p.fields['26'])).to.be.at.most(99);
        expect(p.fields['59']).to.match(/^[\x20-\x7e]{1,25}$/);
        expect(p.fields['60']).to.match(/^[\x20-\x7e]{1,15}$/);
        expect(p.additional['05']).to.equal(t ?? '***');
        if (amount) expect(p.fields['54']).to.equal(amount.toFixed(2));
        else expect(p.fields['54']).to.equal(undefined);
        expect(p.fields['54'] ?? '').to.match(/^(\d{1,10}\.\d{2})?$/);
        // A PSP location (at most 77 characters by the manual; 32-character ids here).
        const dyn = parseBrCode(
          dynamicBrCode({
            location: `pix.example.com/qr/v2/${k.replace(/[^A-Za-z0-9]/g, '').slice(0, 32)}`,
            merchantName: name,
            merchantCity: city,
          }),
        );
        expect(dyn.crcOk).to.equal(true);
        expect(dyn.account['25']).to.match(/^pix\.example\.com\/qr\/v2\//);
      }),
      { numRuns: 500 },
    );
  });
});
