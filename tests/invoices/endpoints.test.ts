import { expect } from 'chai';
import { AUTHORIZERS, authorizerOf, contingencyOf, serviceUrl, UFS } from '../../src/modules/authority/endpoints';
import type { OutboundService } from '../../src/modules/authority/xml/outbound';

/* The NF-e 4.00 authorizer of every UF, and its SVC in contingency, for every service the issue flow calls. */

const NORMAL: OutboundService[] = [
  'AUTORIZACAO',
  'RET_AUTORIZACAO',
  'CONSULTA_PROTOCOLO',
  'STATUS_SERVICO',
  'INUTILIZACAO',
  'RECEPCAO_EVENTO',
];
// In contingency the flow authorizes, consults, asks the status and sends events; numbers are voided at the UF's own authorizer.
const CONTINGENCY: OutboundService[] = ['AUTORIZACAO', 'RET_AUTORIZACAO', 'CONSULTA_PROTOCOLO', 'STATUS_SERVICO', 'RECEPCAO_EVENTO'];

describe('NF-e authorizer endpoints per UF', () => {
  it('every UF resolves to an https URL for every service, in production and homologação, normal and contingency', () => {
    expect(UFS).to.have.length(27);
    for (const uf of UFS) {
      for (const env of ['PRODUCTION', 'HOMOLOGATION'] as const) {
        for (const s of NORMAL)
          expect(serviceUrl(authorizerOf(uf), s, env), `${uf} ${s} ${env}`).to.match(/^https:\/\/[a-z0-9.-]+\.gov\.br\/\S+$/);
        for (const s of CONTINGENCY)
          expect(serviceUrl(contingencyOf(uf), s, env), `${uf} SVC ${s} ${env}`).to.match(/^https:\/\/[a-z0-9.-]+\.gov\.br\/\S+$/);
      }
    }
  });

  it('own authorizers, SVAN for MA, SVRS for the others; SVC-RS for AM BA GO MA MS MT PE PR, SVC-AN for the others', () => {
    const own = UFS.filter((uf) => authorizerOf(uf) === uf);
    expect(own).to.deep.equal(['AM', 'BA', 'GO', 'MG', 'MS', 'MT', 'PE', 'PR', 'RS', 'SP']);
    expect(authorizerOf('MA')).to.equal('SVAN');
    for (const uf of ['AC', 'AL', 'AP', 'CE', 'DF', 'ES', 'PA', 'PB', 'PI', 'RJ', 'RN', 'RO', 'RR', 'SC', 'SE', 'TO'])
      expect(authorizerOf(uf), uf).to.equal('SVRS');
    expect(UFS.filter((uf) => contingencyOf(uf) === 'SVC-RS')).to.deep.equal(['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR']);
    // An UF is never its own contingency.
    for (const uf of UFS) expect(AUTHORIZERS[contingencyOf(uf)].bases[0], uf).to.not.equal(AUTHORIZERS[authorizerOf(uf)].bases[0]);
  });

  it("writes each authorizer's own paths (published URLs)", () => {
    expect(serviceUrl('SP', 'AUTORIZACAO', 'PRODUCTION')).to.equal('https://nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx');
    expect(serviceUrl('SVRS', 'CONSULTA_PROTOCOLO', 'PRODUCTION')).to.equal('https://nfe.svrs.rs.gov.br/ws/NfeConsulta/NfeConsulta4.asmx');
    expect(serviceUrl('MG', 'RECEPCAO_EVENTO', 'PRODUCTION')).to.equal('https://nfe.fazenda.mg.gov.br/nfe2/services/NFeRecepcaoEvento4');
    expect(serviceUrl('AM', 'CONSULTA_PROTOCOLO', 'PRODUCTION')).to.equal('https://nfe.sefaz.am.gov.br/services2/services/NfeConsulta4');
    expect(serviceUrl('BA', 'STATUS_SERVICO', 'HOMOLOGATION')).to.equal(
      'https://hnfe.sefaz.ba.gov.br/webservices/NFeStatusServico4/NFeStatusServico4.asmx',
    );
    expect(serviceUrl('SVAN', 'AUTORIZACAO', 'PRODUCTION')).to.equal(
      'https://www.sefazvirtual.fazenda.gov.br/NFeAutorizacao4/NFeAutorizacao4.asmx',
    );
    expect(serviceUrl('SVC-AN', 'AUTORIZACAO', 'PRODUCTION')).to.equal(
      'https://www.svc.fazenda.gov.br/NFeAutorizacao4/NFeAutorizacao4.asmx',
    );
    expect(() => serviceUrl('SVC-AN', 'INUTILIZACAO', 'PRODUCTION')).to.throw(/does not offer/);
  });
});
