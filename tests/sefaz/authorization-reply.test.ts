import { expect } from 'chai';
import { AUTORIZACAO, readAuthorizationEnvelope, readAuthorizationReply } from '../../src/modules/authority/xml/outbound';
import { buildFaultEnvelope, buildResponseEnvelope, readSoapBody } from '../../src/modules/authority/xml/soap';

/*
 * The authorization reply read without a DOM (a counter sale's NFC-e waits for it) answers exactly what
 * the DOM reading answers, for the shapes authorities send; for anything else it answers nothing and
 * the DOM reading (with its errors) applies.
 */

const NS = 'http://www.portalfiscal.inf.br/nfe';
const KEY = '35261112345678000190650010000000011123456786';
const prot = (cStat = '100', xMotivo = 'Autorizado o uso da NF-e') =>
  `<protNFe versao="4.00"><infProt Id="ID135260000000001"><tpAmb>2</tpAmb><verAplic>SP_NFCE_PL_009_V400</verAplic><chNFe>${KEY}</chNFe>` +
  `<dhRecbto>2026-11-28T08:00:00-03:00</dhRecbto><nProt>135260000000001</nProt><digVal>q0k1bWzt0mkX6yJb1y0Kq7oXl5E=</digVal><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo></infProt></protNFe>`;
const ret = (inner: string, cStat = '104', xMotivo = 'Lote processado') =>
  `<retEnviNFe xmlns="${NS}" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP_NFCE_PL_009_V400</verAplic><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>35</cUF><dhRecbto>2026-11-28T08:00:00-03:00</dhRecbto>${inner}</retEnviNFe>`;
const dom = (raw: string) => readAuthorizationReply(readSoapBody(raw, 'retEnviNFe'), raw);

describe('authorization reply read without a DOM', () => {
  const same: [string, string][] = [
    ['authorized (the envelope the simulator sends)', buildResponseEnvelope(AUTORIZACAO, ret(prot()))],
    ['rejected in the protocol', buildResponseEnvelope(AUTORIZACAO, ret(prot('539', 'Rejeicao: Duplicidade de NF-e com diferenca na Chave de Acesso')))],
    ['refused as a lot, no protocol (108)', buildResponseEnvelope(AUTORIZACAO, ret('', '108', 'Servico Paralisado Momentaneamente (curto prazo)'))],
    [
      'prefixed envelope and message, declaration, BOM, indentation, CRLF',
      `\ufeff<?xml version="1.0" encoding="utf-8"?>\r\n<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope">\r\n  <soap:Header/>\r\n  <soap:Body>\r\n    <nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4">\r\n      <n:retEnviNFe xmlns:n="${NS}" versao="4.00">\r\n        <n:cStat> 104 </n:cStat>\r\n        <n:xMotivo>Lote processado</n:xMotivo>\r\n        <n:protNFe versao="4.00"><n:infProt><n:chNFe>${KEY}</n:chNFe><n:cStat>100</n:cStat><n:xMotivo>Autorizado</n:xMotivo><n:nProt>135260000000002</n:nProt></n:infProt></n:protNFe>\r\n      </n:retEnviNFe>\r\n    </nfeResultMsg>\r\n  </soap:Body>\r\n</soap:Envelope>\r\n`,
    ],
    ['entities in the reasons', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', 'Autoriza&#231;&#xE3;o &amp; &lt;uso&gt; &quot;ok&quot; &apos;ok&apos;'), '104', 'Lote &amp; processado'))],
    ['the bare message (a gateway stripped the envelope)', ret(prot())],
    ['a receipt (asynchronous lot)', buildResponseEnvelope(AUTORIZACAO, ret('<infRec><nRec>351000000000001</nRec><tMed>1</tMed></infRec>', '103', 'Lote recebido com sucesso'))],
    ['empty and self-closed values', buildResponseEnvelope(AUTORIZACAO, ret('<protNFe versao="4.00"><infProt><cStat/><xMotivo></xMotivo></infProt></protNFe>', '104', ''))],
  ];
  for (const [what, raw] of same) {
    it(`${what}: the same reading as the DOM's`, () => {
      const quick = readAuthorizationEnvelope(raw);
      expect(quick, 'read without the DOM').to.not.equal(undefined);
      expect(quick).to.deep.equal(dom(raw));
    });
  }

  const declined: [string, string][] = [
    ['a SOAP Fault', buildFaultEnvelope('Mensagem invalida')],
    [
      'a SOAP Fault beside the message',
      buildResponseEnvelope(AUTORIZACAO, ret(prot())).replace('<soap12:Body>', '<soap12:Body><soap12:Fault><soap12:Reason><soap12:Text>x</soap12:Text></soap12:Reason></soap12:Fault>'),
    ],
    ['a comment', buildResponseEnvelope(AUTORIZACAO, ret(`<!-- x -->${prot()}`))],
    ['CDATA', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', '<![CDATA[Autorizado]]>')))],
    ['a DOCTYPE', `<!DOCTYPE x [<!ENTITY e "x">]>${buildResponseEnvelope(AUTORIZACAO, ret(prot()))}`],
    ['a processing instruction', buildResponseEnvelope(AUTORIZACAO, ret(`<?pi x?>${prot()}`))],
    ['mismatched tags', buildResponseEnvelope(AUTORIZACAO, ret(prot())).replace('</xMotivo>', '</xmotivo>')],
    ['truncated', buildResponseEnvelope(AUTORIZACAO, ret(prot())).slice(0, -20)],
    ['two roots', `${ret(prot())}${ret(prot())}`],
    ['text outside the root', `${ret(prot())}x`],
    ['an unknown entity', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', 'A &eacute;')))],
    ['a bare ampersand', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', 'A & B')))],
    ['a value holding elements', buildResponseEnvelope(AUTORIZACAO, ret(prot('<b>100</b>')))],
    ['the message outside the Body', `<Envelope><Header>${ret(prot())}</Header><Body/></Envelope>`],
  ];
  for (const [what, raw] of declined) {
    it(`${what}: left to the DOM reading`, () => {
      expect(readAuthorizationEnvelope(raw)).to.equal(undefined);
    });
  }
});
