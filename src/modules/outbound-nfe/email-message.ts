import { Dec } from '../../core/decimal';
import { childAt, readXml, textAt } from '../fiscal-xml';
import type { OutboundNfe } from './entities/outbound-nfe.entity';

/*
 * The NF-e email as a Brazilian customer expects it: in Portuguese with its accents, the note's number,
 * série, issue date and value, the access key in groups of four, the authorization protocol, what the
 * two attachments are and where the key can be checked, signed by the issuer (emit/xNome of the XML).
 */
const brl = (value: string) => {
  const [int, dec = '00'] = new Dec(value).toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2).split('.');
  return `R$ ${int.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${dec}`;
};
export function invoiceEmailMessage(doc: OutboundNfe, procXml: string): { subject: string; text: string } {
  const tree = readXml(procXml);
  const issuer = textAt(childAt(tree, 'nfeProc', 'NFe', 'infNFe') ?? childAt(tree, 'NFe', 'infNFe'), 'emit', 'xNome') ?? '';
  const issuedOn = /^(\d{4})-(\d{2})-(\d{2})/.exec(doc.issuedAtText);
  const date = issuedOn ? `${issuedOn[3]}/${issuedOn[2]}/${issuedOn[1]}` : '';
  const recipient = doc.summary.recipientName?.trim();
  const key = doc.accessKey.replace(/(\d{4})(?=\d)/g, '$1 ');
  const text = [
    recipient ? `Prezado(a) ${recipient},` : 'Prezado(a) cliente,',
    '',
    `Segue a Nota Fiscal Eletrônica (NF-e) nº ${doc.number}, série ${doc.series}, emitida em ${date}, no valor de ${brl(doc.total.toString())}.`,
    '',
    `Chave de acesso: ${key}`,
    `Protocolo de autorização: ${doc.protocol ?? ''}`,
    '',
    'Em anexo estão o arquivo XML da NF-e, que é o documento fiscal e deve ser guardado, e o DANFE em PDF, sua representação impressa.',
    'A autenticidade da nota pode ser consultada no Portal da Nota Fiscal Eletrônica (https://www.nfe.fazenda.gov.br/portal) com a chave de acesso.',
    '',
    'Atenciosamente,',
    issuer || 'Departamento fiscal',
  ].join('\n');
  return { subject: `NF-e nº ${doc.number}, série ${doc.series}${issuer ? ` — ${issuer}` : ''}`, text };
}
