import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Element } from '@xmldom/xmldom';
import { IssuerAuthority } from '../../src/dev/sefaz-simulator/issuer-authority';
import { buildDistDFeInt, buildRetDistDFeInt, readDistDFeInt } from '../../src/modules/authority/xml/dist-dfe';
import { childElements, parseRoot } from '../../src/modules/authority/xml/dom';
import { buildRetEnvEvento, buildRetEvento, readEnvEvento } from '../../src/modules/authority/xml/events';
import {
  AUTORIZACAO,
  buildConsSitNFe,
  buildConsStatServ,
  CONSULTA_PROTOCOLO,
  INUTILIZACAO,
  readInutNFe,
  STATUS_SERVICO,
} from '../../src/modules/authority/xml/outbound';
import { answerStatus, authorizationOf, eventLotOf, situationOf, statusOf, voidingOf } from '../../src/modules/authority/xml/answers';
import { extractElementText, parseReply, readReply, readSoapBody, ReplyNode } from '../../src/modules/authority/xml/reply';
import {
  buildFaultEnvelope,
  buildRequestEnvelope,
  buildResponseEnvelope,
  DIST_DFE,
  RECEPCAO_EVENTO,
  SoapFault,
} from '../../src/modules/authority/xml/soap';
import { XmlReadError } from '../../src/modules/authority/xml/xml-text';
import { FIXTURES, hasFixtures } from './support';
import { soapMessage } from '../../src/dev/sefaz-simulator/request-tree';

/*
 * The one reader of the authority's replies (authority/xml/reply.ts) against the DOM (xmldom): the same
 * tree — local names, children, text, attributes — for the recorded traffic, the simulator's replies
 * and the shapes authorities send (SOAP 1.1 and 1.2, prefixed or not, declaration, BOM, comments,
 * CDATA, entities); the messages' fields; and the same refusals of what is not well-formed.
 */

const NS = 'http://www.portalfiscal.inf.br/nfe';
const KEY = '35261112345678000190650010000000011123456786';

interface Outline {
  name: string;
  attrs: Record<string, string>;
  text?: string;
  children?: Outline[];
}

function domOutline(el: Element): Outline {
  const attrs: Record<string, string> = {};
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes[i];
    if (a.name !== 'xmlns' && a.prefix !== 'xmlns') attrs[a.localName ?? a.name] = a.value;
  }
  const kids = childElements(el);
  return kids.length
    ? { name: el.localName!, attrs, children: kids.map(domOutline) }
    : { name: el.localName!, attrs, text: el.textContent ?? '' };
}

const readerOutline = (n: ReplyNode): Outline =>
  n.children.length
    ? { name: n.name, attrs: n.attrs, children: n.children.map(readerOutline) }
    : { name: n.name, attrs: n.attrs, text: n.text };

const sameAsDom = (raw: string) => expect(readerOutline(parseReply(raw))).to.deep.equal(domOutline(parseRoot(raw)));

const prot = (cStat = '100', xMotivo = 'Autorizado o uso da NF-e') =>
  `<protNFe versao="4.00"><infProt Id="ID135260000000001"><tpAmb>2</tpAmb><verAplic>SP_NFCE_PL_009_V400</verAplic><chNFe>${KEY}</chNFe>` +
  `<dhRecbto>2026-11-28T08:00:00-03:00</dhRecbto><nProt>135260000000001</nProt><digVal>q0k1bWzt0mkX6yJb1y0Kq7oXl5E=</digVal><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo></infProt></protNFe>`;
const ret = (inner: string, cStat = '104', xMotivo = 'Lote processado') =>
  `<retEnviNFe xmlns="${NS}" versao="4.00"><tpAmb>2</tpAmb><verAplic>SP_NFCE_PL_009_V400</verAplic><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>35</cUF><dhRecbto>2026-11-28T08:00:00-03:00</dhRecbto>${inner}</retEnviNFe>`;

const PREFIXED =
  `\ufeff<?xml version="1.0" encoding="utf-8"?>\r\n<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope">\r\n  <soap:Header/>\r\n  <soap:Body>\r\n` +
  `    <nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4">\r\n      <n:retEnviNFe xmlns:n="${NS}" versao="4.00">\r\n        <n:cStat> 104 </n:cStat>\r\n` +
  `        <n:xMotivo>Lote processado</n:xMotivo>\r\n        <n:protNFe versao="4.00"><n:infProt><n:chNFe>${KEY}</n:chNFe><n:cStat>100</n:cStat><n:xMotivo>Autorizado</n:xMotivo><n:nProt>135260000000002</n:nProt></n:infProt></n:protNFe>\r\n` +
  `      </n:retEnviNFe>\r\n    </nfeResultMsg>\r\n  </soap:Body>\r\n</soap:Envelope>\r\n`;

const SHAPES: [string, string][] = [
  ['authorized (the envelope the simulator sends)', buildResponseEnvelope(AUTORIZACAO, ret(prot()))],
  [
    'rejected in the protocol',
    buildResponseEnvelope(AUTORIZACAO, ret(prot('539', 'Rejeicao: Duplicidade de NF-e com diferenca na Chave de Acesso'))),
  ],
  [
    'refused as a lot, no protocol (108)',
    buildResponseEnvelope(AUTORIZACAO, ret('', '108', 'Servico Paralisado Momentaneamente (curto prazo)')),
  ],
  ['prefixed envelope and message, declaration, BOM, indentation, CRLF', PREFIXED],
  [
    'entities in the reasons',
    buildResponseEnvelope(
      AUTORIZACAO,
      ret(prot('100', 'Autoriza&#231;&#xE3;o &amp; &lt;uso&gt; &quot;ok&quot; &apos;ok&apos;'), '104', 'Lote &amp; processado'),
    ),
  ],
  ['the bare message (a gateway stripped the envelope)', ret(prot())],
  [
    'a receipt (asynchronous lot)',
    buildResponseEnvelope(
      AUTORIZACAO,
      ret('<infRec><nRec>351000000000001</nRec><tMed>1</tMed></infRec>', '103', 'Lote recebido com sucesso'),
    ),
  ],
  [
    'empty and self-closed values',
    buildResponseEnvelope(AUTORIZACAO, ret('<protNFe versao="4.00"><infProt><cStat/><xMotivo></xMotivo></infProt></protNFe>', '104', '')),
  ],
  ['a comment and a processing instruction', buildResponseEnvelope(AUTORIZACAO, ret(`<!-- x --><?pi x?>${prot()}`))],
  ['a bare ampersand', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', 'A & B')))],
  ['CDATA', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', '<![CDATA[Autorizado <uso> & ok]]>')))],
  [
    'single-quoted attributes and spaces in tags',
    buildResponseEnvelope(AUTORIZACAO, ret(prot())).replace('versao="4.00"', "versao = '4.00' ").replace('</cStat>', '</cStat >'),
  ],
];

describe('the reader of the authority replies', () => {
  describe('the same tree as the DOM', () => {
    for (const [what, raw] of SHAPES) it(what, () => sameAsDom(raw));

    const sim = new IssuerAuthority({ now: () => Date.parse('2026-11-28T11:00:00Z') });
    const simulated: [string, string][] = [
      [
        'simulator: status',
        buildResponseEnvelope(STATUS_SERVICO, sim.status(soapMessage(buildConsStatServ('2', '35'), 'consStatServ'), false)),
      ],
      [
        'simulator: situation of an unknown key',
        buildResponseEnvelope(CONSULTA_PROTOCOLO, sim.situation(soapMessage(buildConsSitNFe('2', KEY), 'consSitNFe'), false)),
      ],
      [
        'simulator: an event lot',
        buildResponseEnvelope(
          RECEPCAO_EVENTO,
          buildRetEnvEvento({
            idLote: '1',
            tpAmb: '2',
            verAplic: 'SIM',
            cStat: '128',
            xMotivo: 'Lote de evento processado',
            retEventos: [
              buildRetEvento({
                tpAmb: '2',
                verAplic: 'SIM',
                cStat: '135',
                xMotivo: 'Evento registrado & vinculado',
                accessKey: KEY,
                tpEvento: '110111',
                sequence: 1,
                registeredAt: '2026-11-28T08:00:00-03:00',
                protocol: '135260000000009',
              }),
            ],
          }),
        ),
      ],
      [
        'simulator: a distribution with documents',
        buildResponseEnvelope(
          DIST_DFE,
          buildRetDistDFeInt({
            cStat: '138',
            xMotivo: 'Documento(s) localizado(s)',
            ultNSU: '000000000000002',
            maxNSU: '000000000000002',
            dhResp: '2026-11-28T08:00:00-03:00',
            tpAmb: '1',
            verAplic: 'SIM',
            documents: [
              { nsu: '000000000000001', schema: 'resNFe_v1.01.xsd', xml: `<resNFe xmlns="${NS}"><chNFe>${KEY}</chNFe></resNFe>` },
            ],
          }),
        ),
      ],
    ];
    for (const [what, raw] of simulated) it(what, () => sameAsDom(raw));

    const ws = hasFixtures ? fs.readdirSync(path.join(FIXTURES, 'ws')).filter((f) => /^ret.*\.xml$/.test(f)) : [];
    for (const file of ws) it(`recorded: ${file}`, () => sameAsDom(fs.readFileSync(path.join(FIXTURES, 'ws', file), 'utf8')));
  });

  describe('the messages', () => {
    it('an authorization: the lot, the protocol and its exact text', () => {
      const raw = buildResponseEnvelope(AUTORIZACAO, ret(prot()));
      const a = authorizationOf(readReply(raw, 'retEnviNFe'));
      expect(a).to.deep.include({ cStat: '104', xMotivo: 'Lote processado', receivedAt: '2026-11-28T08:00:00-03:00', receipt: null });
      expect(a.protocol).to.deep.equal({
        tpAmb: '2',
        accessKey: KEY,
        receivedAt: '2026-11-28T08:00:00-03:00',
        protocol: '135260000000001',
        digest: 'q0k1bWzt0mkX6yJb1y0Kq7oXl5E=',
        cStat: '100',
        xMotivo: 'Autorizado o uso da NF-e',
        xml: prot(),
      });
      expect(answerStatus(readReply(raw, 'retEnviNFe').message)).to.deep.equal({ cStat: '100', xMotivo: 'Autorizado o uso da NF-e' });
    });

    it('prefixed, trimmed, entities and CDATA decoded', () => {
      const a = authorizationOf(readReply(PREFIXED, 'retEnviNFe'));
      expect(a).to.deep.include({ cStat: '104', xMotivo: 'Lote processado' });
      expect(a.protocol).to.deep.include({ cStat: '100', protocol: '135260000000002', accessKey: KEY });
      expect(a.protocol!.xml).to.match(/^<n:protNFe versao="4.00">.*<\/n:protNFe>$/);
      const e = authorizationOf(
        readReply(buildResponseEnvelope(AUTORIZACAO, ret(prot('100', 'Autoriza&#231;&#xE3;o &amp; &lt;uso&gt;'))), 'retEnviNFe'),
      );
      expect(e.protocol!.xMotivo).to.equal('Autorização & <uso>');
      const c = authorizationOf(
        readReply(buildResponseEnvelope(AUTORIZACAO, ret(prot('100', '<![CDATA[Autorizado <uso>]]>'))), 'retEnviNFe'),
      );
      expect(c.protocol!.xMotivo).to.equal('Autorizado <uso>');
    });

    it('a receipt, and a lot refused without a protocol', () => {
      expect(
        authorizationOf(
          readReply(
            buildResponseEnvelope(AUTORIZACAO, ret('<infRec><nRec>351000000000001</nRec></infRec>', '103', 'Lote recebido')),
            'retEnviNFe',
          ),
        ),
      ).to.deep.include({
        cStat: '103',
        receipt: '351000000000001',
        protocol: null,
      });
      const refused = readReply(buildResponseEnvelope(AUTORIZACAO, ret('', '108', 'Servico Paralisado')), 'retEnviNFe');
      expect(answerStatus(refused.message)).to.deep.equal({ cStat: '108', xMotivo: 'Servico Paralisado' });
    });

    it('an event lot: the event read, its retEvento taken out byte for byte', () => {
      const retEvento = buildRetEvento({
        tpAmb: '2',
        verAplic: 'SIM',
        cStat: '135',
        xMotivo: 'Evento registrado',
        accessKey: KEY,
        tpEvento: '110111',
        sequence: 1,
        registeredAt: '2026-11-28T08:00:00-03:00',
        protocol: '135260000000009',
      });
      const raw = buildResponseEnvelope(
        RECEPCAO_EVENTO,
        buildRetEnvEvento({
          idLote: '7',
          tpAmb: '2',
          verAplic: 'SIM',
          cStat: '128',
          xMotivo: 'Lote de evento processado',
          retEventos: [retEvento],
        }),
      );
      const lot = eventLotOf(readReply(raw, 'retEnvEvento'));
      expect(lot).to.deep.include({ idLote: '7', cStat: '128', retEventos: [retEvento] });
      expect(lot.events[0]).to.deep.equal({
        cStat: '135',
        xMotivo: 'Evento registrado',
        accessKey: KEY,
        tpEvento: '110111',
        xEvento: null,
        sequence: 1,
        registeredAt: '2026-11-28T08:00:00-03:00',
        protocol: '135260000000009',
        recipientDocument: null,
      });
      expect(answerStatus(readReply(raw, 'retEnvEvento').message).cStat).to.equal('135');
    });

    if (hasFixtures)
      it('recorded: the 573 of a duplicate event', () => {
        const raw = fs.readFileSync(path.join(FIXTURES, 'ws', 'retEnvEvento-210210-128-573-duplicidade-soap.xml'), 'utf8');
        const lot = eventLotOf(readReply(raw, 'retEnvEvento'));
        expect(lot.events[0]).to.include({ cStat: '573', tpEvento: '210210', sequence: 1 });
        expect(lot.retEventos[0]).to.equal(/<retEvento[\s>][\s\S]*?<\/retEvento>/.exec(raw)![0]);
        expect(answerStatus(readReply(raw, 'retEnvEvento').message)).to.deep.equal({
          cStat: '573',
          xMotivo: 'Rejeicao: Duplicidade de evento',
        });
      });

    it('status, situation and voiding', () => {
      const sim = new IssuerAuthority({ now: () => Date.parse('2026-11-28T11:00:00Z') });
      expect(
        statusOf(
          readReply(
            buildResponseEnvelope(STATUS_SERVICO, sim.status(soapMessage(buildConsStatServ('2', '35'), 'consStatServ'), false)),
            'retConsStatServ',
          ),
        ).cStat,
      ).to.equal('107');
      expect(
        situationOf(
          readReply(
            buildResponseEnvelope(CONSULTA_PROTOCOLO, sim.situation(soapMessage(buildConsSitNFe('2', KEY), 'consSitNFe'), false)),
            'retConsSitNFe',
          ),
        ),
      ).to.deep.include({ protocol: null, events: [] });
      const inut = `<retInutNFe xmlns="${NS}" versao="4.00"><infInut><tpAmb>2</tpAmb><cStat>102</cStat><xMotivo>Inutilizacao de numero homologado</xMotivo><dhRecbto>2026-11-28T08:00:00-03:00</dhRecbto><nProt>135260000000010</nProt></infInut></retInutNFe>`;
      const v = voidingOf(readReply(buildResponseEnvelope(INUTILIZACAO, inut), 'retInutNFe'));
      expect(v).to.deep.equal({
        cStat: '102',
        xMotivo: 'Inutilizacao de numero homologado',
        protocol: '135260000000010',
        receivedAt: '2026-11-28T08:00:00-03:00',
        xml: inut,
      });
    });
  });

  describe('refusals', () => {
    it('a SOAP Fault (1.2 and 1.1) is the fault', () => {
      expect(() => readReply(buildFaultEnvelope('Mensagem invalida'), 'retEnviNFe')).to.throw(SoapFault, 'Mensagem invalida');
      const fault11 =
        '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>Bad</faultstring></s:Fault></s:Body></s:Envelope>';
      expect(() => readReply(fault11, 'retEnviNFe')).to.throw(SoapFault, 'Bad');
    });

    it('a reply without the message, or not an envelope', () => {
      expect(() => readReply(buildResponseEnvelope(AUTORIZACAO, '<other/>'), 'retEnviNFe')).to.throw(XmlReadError, 'has no retEnviNFe');
      expect(() => readReply('<html><body>502</body></html>', 'retEnviNFe')).to.throw(XmlReadError, 'not a SOAP envelope');
      expect(() => readReply(`<Envelope><Header>${ret(prot())}</Header><Body/></Envelope>`, 'retEnviNFe')).to.throw(XmlReadError);
    });

    const malformed: [string, string][] = [
      ['a DOCTYPE', `<!DOCTYPE x [<!ENTITY e "x">]>${buildResponseEnvelope(AUTORIZACAO, ret(prot()))}`],
      ['mismatched tags', buildResponseEnvelope(AUTORIZACAO, ret(prot())).replace('</xMotivo>', '</xmotivo>')],
      ['truncated', buildResponseEnvelope(AUTORIZACAO, ret(prot())).slice(0, -20)],
      ['two roots', `${ret(prot())}${ret(prot())}`],
      ['text outside the root', `${ret(prot())}x`],
      ['an unknown entity', buildResponseEnvelope(AUTORIZACAO, ret(prot('100', 'A &eacute;')))],
      ['empty', ''],
    ];
    for (const [what, raw] of malformed)
      it(`${what}: not well-formed, as for the DOM`, () => {
        expect(() => parseReply(raw)).to.throw(XmlReadError);
        expect(() => parseRoot(raw)).to.throw();
      });
  });

  describe('the requests the simulator reads, on the same pass (issue 49: no DOM, no regex)', () => {
    const evento = (seq: number, just: string) =>
      `<evento xmlns="${NS}" versao="1.00"><infEvento Id="ID110111${KEY}0${seq}"><cOrgao>35</cOrgao><tpAmb>2</tpAmb><CNPJ>12345678000190</CNPJ>` +
      `<chNFe>${KEY}</chNFe><dhEvento>2026-11-28T08:00:00-03:00</dhEvento><tpEvento>110111</tpEvento><nSeqEvento> ${seq} </nSeqEvento>` +
      `<verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>Cancelamento</descEvento><xJust>${just}</xJust></detEvento></infEvento></evento>`;

    it('readEnvEvento: each evento with its exact text (pretty-printed lot, prefixes), values trimmed and decoded', () => {
      const first = evento(1, 'Erro de digitacao &amp; valor');
      const second = evento(2, '<![CDATA[a < b]]>');
      const lot = `<?xml version="1.0"?>\n<envEvento xmlns="${NS}" versao="1.00">\n  <idLote> 42 </idLote>\n  ${first}\n  <!-- <evento/> -->\n  ${second}\n</envEvento>`;
      const read = readEnvEvento(lot);
      expect(read.idLote).to.equal('42');
      expect(read.eventos.map((e) => e.xml)).to.deep.equal([first, second]);
      expect(read.eventos.map((e) => [e.id, e.sequence, e.authorDocument, e.justification])).to.deep.equal([
        [`ID110111${KEY}01`, 1, '12345678000190', 'Erro de digitacao & valor'],
        [`ID110111${KEY}02`, 2, '12345678000190', 'a < b'],
      ]);
      expect(readEnvEvento(`<p:envEvento xmlns:p="${NS}"><p:idLote>1</p:idLote></p:envEvento>`)).to.deep.equal({
        idLote: '1',
        eventos: [],
      });
    });

    it('readInutNFe, readDistDFeInt(readSoapBody) and extractElementText', () => {
      const inut = `<inutNFe xmlns="${NS}" versao="4.00"><infInut Id="ID3526"><tpAmb>2</tpAmb><cUF>35</cUF><mod>55</mod><nNFIni>7</nNFIni><xJust>a &amp; b</xJust></infInut></inutNFe>`;
      expect(readInutNFe(inut)).to.include({ id: 'ID3526', tpAmb: '2', cUF: '35', model: 55, first: 7, justification: 'a & b' });
      expect(readInutNFe(inut).series).to.be.NaN;
      const dist = buildDistDFeInt({ tpAmb: '2', cUFAutor: '35', cnpj: '12345678909', query: { kind: 'consChNFe', accessKey: KEY } });
      const request = buildRequestEnvelope(DIST_DFE, dist);
      expect(readDistDFeInt(readSoapBody(request, 'distDFeInt'))).to.deep.equal({
        tpAmb: '2',
        cUFAutor: '35',
        cnpj: '12345678909',
        query: { kind: 'consChNFe', accessKey: KEY },
      });
      expect(extractElementText(request, 'distDFeInt')).to.equal(dist);
      expect(extractElementText(`<a><!-- <b>x</b> --><p:b xmlns:p="u"><p:b/></p:b></a>`, 'b')).to.equal('<p:b xmlns:p="u"><p:b/></p:b>');
      expect(extractElementText('<a/>', 'b')).to.equal(null);
      expect(() => readSoapBody(buildFaultEnvelope('Mensagem invalida'), 'distDFeInt')).to.throw(SoapFault, 'Mensagem invalida');
    });
  });
});
