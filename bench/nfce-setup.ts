/* The NFC-e benches' common start: a counter tenant whose first sale's note came back authorized, and the signing floor of that note's bytes. */
import crypto from 'node:crypto';
import { dataSource } from '../src/core/db/data-source';
import { gunzipText } from '../src/modules/outbound-nfe/invoice-store';
import { counterSigning } from '../src/modules/nfce/issue.service';
import { NfceDocument } from '../src/modules/nfce/entities/nfce-document.entity';
import { addStock } from '../tests/support/catalog';
import { Counter, counterTenant } from '../tests/nfce/support';

export interface AuthorizedCounter {
  c: Counter;
  /** The first sale's note, AUTHORIZED online, and its signed XML. */
  stored: NfceDocument;
  signedXml: string;
  signing: Awaited<ReturnType<typeof counterSigning>>;
  /** The signing floor: SHA-1 of the note's canonical infNFe + one RSA-SHA1 signature of its SignedInfo, node's crypto alone. */
  floorOnce: () => void;
}

/** `units` of every product in the counter's filiais (`filiais`), then one sale online (the path works, the floor has real bytes). */
export async function authorizedCounter(units: number, filiais: (0 | 1)[]): Promise<AuthorizedCounter> {
  const c = await counterTenant();
  const t = c.t;
  await c.save({ syncTimeoutMs: 3000 });
  for (const f of filiais) for (const p of t.products) await addStock(t, f, p.id, units, '3');
  const first = await c.sell();
  if (first.body.fiscalDocument?.status !== 'AUTHORIZED') throw new Error(`the NFC-e was not authorized: ${JSON.stringify(first.body)}`);
  const stored = await dataSource.manager.findOneByOrFail(NfceDocument, { companyId: t.companyId, status: 'AUTHORIZED' });
  const signedXml = gunzipText(stored.signedXmlGz);
  const infNFe = /<infNFe[\s\S]*<\/infNFe>/.exec(signedXml)![0].replace('<infNFe ', `<infNFe xmlns="http://www.portalfiscal.inf.br/nfe" `);
  const signedInfo = /<SignedInfo[\s\S]*<\/SignedInfo>/.exec(signedXml)![0];
  const signing = await counterSigning(t.companyId, t.filialIds[0]);
  const floorOnce = () => {
    crypto.createHash('sha1').update(infNFe, 'utf8').digest('base64');
    crypto.sign('sha1', Buffer.from(signedInfo, 'utf8'), signing.signer.key);
  };
  return { c, stored, signedXml, signing, floorOnce };
}
