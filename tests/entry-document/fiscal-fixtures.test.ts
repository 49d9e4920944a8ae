import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { decodeId, encodeId } from '../../src/core/hashids';
import { NfeInbound } from '../../src/modules/inbound-nfe/entities/nfe-inbound.entity';
import { createEntryDocumentDraft } from '../../src/modules/entry-document/create-draft';
import { toDraftInput } from '../../src/modules/inbound-nfe/nfe-draft';
import { parseNfe } from '../../src/modules/fiscal-xml/nfe/nfe-parser';
import { api } from '../support/api';
import { makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';
import { NFE, setFilialDocument, uploadConsulted } from '../nfe/nfe-support';
import { confirm, movementsOf, payablesOf } from './support';
import { creditsOf, setTaxRegime, thirdPartyBalance } from './fiscal-support';

/*
 * The shared real NF-e samples (../shared/fixtures/nfe) book as their CFOPs say (issue 17): the
 * bonificação with its sale, the 2026 remessa for industrialization and its retorno, a plain 2026
 * purchase, and the self-issued import entry note. Figures from the XML, computed by hand below.
 * Skipped when the folder is absent.
 */

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/nfe');
const present = fs.existsSync(FIXTURES);
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

const BONIFICACAO = 'procNFe-v400-prod-sc-venda-bonificacao-multicfop.xml';
const REMESSA = 'reforma/procNFe-v400-rtc-prod-sc-remessa-industrializacao-cst410.xml';
const RETORNO = 'reforma/procNFe-v400-rtc-prod-sc-retorno-nfref-cst410-totais-sem-decimais.xml';
const PURCHASE_2026 = 'reforma/procNFe-v400-rtc-prod-sc-4itens-ibscbs-cst000-ipi-3dup.xml';
const IMPORT_3101 = 'procNFe-v400-prod-sc-importacao-entrada-cfop3101-di.xml';
const SEGAU = '13671448000189';
const WEG = '60621141000404';

(present ? describe : describe.skip)('Real NF-e samples book as their CFOPs say', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant({ filiais: 2 });
    // Filial 0 is the recipient of the 2026 purchase and remessa (SEGAU), filial 1 of the retorno (WEG).
    await setFilialDocument(t, 0, SEGAU);
    await setFilialDocument(t, 1, WEG);
  });

  const previewImport = (file: string, filialIndex = 0) =>
    api().post(`${NFE}/preview-import`).set(t.headers(filialIndex)).set('Content-Type', 'application/xml').send(read(file));
  // Uploaded by hand: the authority's confirmation of the key is recorded as consultar-protocolo would. The
  // 2026 samples are signed by a self-signed test certificate ("SEM VALIDADE JURÍDICA") that confirmation
  // rightly refuses (NFE_SIGNER_UNTRUSTED, tests/nfe/signer-trust.test.ts); to exercise the booking rules on
  // their real figures the stored verdict is set as if the operator's roots trusted that signer.
  const importXml = async (file: string, items: { lineNumber: number; productId: string }[], filialIndex = 0) => {
    const res = await uploadConsulted(
      t,
      await api()
        .post(`${NFE}/importar-xml`)
        .set(t.headers(filialIndex))
        .send({ xml: read(file), items }),
    );
    if (res.status === 201) await trustSignerForTest(t.companyId, decodeId('nfe-inbound', res.body.inbound.id));
    return res;
  };
  async function trustSignerForTest(companyId: number, id: number): Promise<void> {
    await inTransaction(NO_UNIT, async (em) => {
      const inbound = await em.findOneByOrFail(NfeInbound, { companyId, id });
      const signer = inbound.validation?.checks.find((c) => c.check === 'SIGNER');
      if (!signer?.details) return;
      signer.outcome = 'PASS';
      signer.details = { ...signer.details, verdict: 'TRUSTED', reasons: [] };
      await em.save(inbound);
    });
  }

  const bookings = (lines: any[]) => lines.map((l) => [l.declaredCfop, l.entryCfop, l.operationClass, l.posts.stock, l.posts.payable]);

  describe(BONIFICACAO, () => {
    // Fornos Ltda. (SC) sells an oven (6107: 18216.00 + freight 788.00 = 19004.00) and 4 plates (6108: 100.00)
    // and gives 2 + 8 parts free (6910: 340.95 + IPI 17.05 = 358.00 and 137.17 + IPI 6.86 = 144.03).
    // vNF 19606.03; the one duplicata, 19104.00, is exactly 19004.00 + 100.00: the parts are not owed.
    // Its upstream copy has no signature, so the draft is created from the parsed XML (as importar-xml would).
    let id: string;
    let products: { id: number; hash: string }[];
    before(async () => {
      products = [await makeProduct(t), await makeProduct(t), await makeProduct(t), await makeProduct(t)];
      const nfe = await parseNfe(read(BONIFICACAO));
      const { draft } = toDraftInput(nfe, {
        filialId: t.filialIds[0],
        origin: 'NFE_XML',
        matches: nfe.items.map(() => null),
        overrides: products.map((p, i) => ({ lineNumber: i + 1, productId: p.id })),
        entryDate: '2021-12-01',
      });
      const doc = await inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, draft));
      id = encodeId('entry-document', doc.id);
    });

    it('books 2102 purchases and 2910 bonificações; only the sale is owed, matching the duplicata', async () => {
      const pre = (await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers())).body;
      expect(pre.blockingProblems).to.deep.equal([]);
      expect(bookings(pre.lines)).to.deep.equal([
        ['6107', '2102', 'PURCHASE_RESALE', 'OWN', true],
        ['6108', '2102', 'PURCHASE_RESALE', 'OWN', true],
        ['6910', '2910', 'BONUS', 'OWN', false],
        ['6910', '2910', 'BONUS', 'OWN', false],
      ]);
      expect(pre.payableTotal).to.equal(19104);
      expect(pre.payables).to.deep.equal([{ number: 1, dueDate: '2021-12-15', amount: 19104 }]);
    });

    it('under LUCRO_REAL: ICMS of every line, PIS/COFINS of the sale only, to the cent', async () => {
      await setTaxRegime(t, 0, 'LUCRO_REAL');
      try {
        const pre = (await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers())).body;
        // Oven: ICMS 1672.50; PIS/COFINS base 18216 + 788 − 1672.50 = 17331.50 → 285.97 and 1317.19;
        //   19004.00 − 1672.50 − 285.97 − 1317.19 = 15728.34.
        // Plates: ICMS 12.00; base 100 − 12 = 88.00 → 1.45 and 6.69; 100 − 12 − 1.45 − 6.69 = 79.86 → 19.965.
        // Parts (free): ICMS 31.51 and 12.68 only; 358.00 − 31.51 = 326.49 → 163.245; 144.03 − 12.68 = 131.35 → 16.41875.
        expect(pre.lines.map((l: any) => [l.cost.credits, l.cost.costTotal, l.cost.unitCost])).to.deep.equal([
          [{ icms: 1672.5, pis: 285.97, cofins: 1317.19, ipi: 0 }, 15728.34, 15728.34],
          [{ icms: 12, pis: 1.45, cofins: 6.69, ipi: 0 }, 79.86, 19.965],
          [{ icms: 31.51, pis: 0, cofins: 0, ipi: 0 }, 326.49, 163.245],
          [{ icms: 12.68, pis: 0, cofins: 0, ipi: 0 }, 131.35, 16.41875],
        ]);
        // ICMS 1728.69 on base 14405.72 — the invoice's own vICMS and vBC; PIS 287.42 and COFINS 1323.88 on 17419.50.
        expect(pre.taxCredits).to.deep.equal([
          { tax: 'ICMS', base: 14405.72, amount: 1728.69 },
          { tax: 'PIS', base: 17419.5, amount: 287.42 },
          { tax: 'COFINS', base: 17419.5, amount: 1323.88 },
        ]);
      } finally {
        await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
      }
    });

    it('confirmed (Simples Nacional): everything enters own stock at its landed cost, one payable of 19104.00', async () => {
      const res = await confirm(t, id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // 19004.00 / 1; 100.00 / 4; 358.00 / 2; 144.03 / 8 = 18.00375.
      expect(await Promise.all(products.map((p) => stockOf(t, 0, p.id)))).to.deep.equal([
        { quantity: '1.0000', averageCost: '19004.0000000000' },
        { quantity: '4.0000', averageCost: '25.0000000000' },
        { quantity: '2.0000', averageCost: '179.0000000000' },
        { quantity: '8.0000', averageCost: '18.0037500000' },
      ]);
      expect((await payablesOf(t, id)).map((p) => [p.dueDate, p.amount.toFixed(2)])).to.deep.equal([['2021-12-15', '19104.00']]);
      expect(await creditsOf(t, id)).to.deep.equal([]);
    });
  });

  describe(`${REMESSA} and ${RETORNO}`, () => {
    it('the remessa (5901 → 1901) is WEG’s paint held by SEGAU: third-party stock, no own stock, no payable', async () => {
      const p = await makeProduct(t);
      const res = await importXml(REMESSA, [{ lineNumber: 1, productId: p.hash }]);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
      const id = res.body.entryDocument.id;
      const pre = (await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers())).body;
      expect(bookings(pre.lines)).to.deep.equal([['5901', '1901', 'THIRD_PARTY_INBOUND', 'THIRD_PARTY', false]]);
      {
        const c = await confirm(t, id);
        expect(c.status, JSON.stringify(c.body).slice(0, 800)).to.equal(200);
      }
      expect(await movementsOf(t, id)).to.deep.equal([]);
      expect(await payablesOf(t, id)).to.deep.equal([]);
      // 12 × 72.31 = 867.72 of WEG's.
      const held = (await thirdPartyBalance(t, 0, p.id))!;
      expect([held.ownerDocument, held.quantity.toFixed(4), held.value.toFixed(2)]).to.deep.equal([WEG, '12.0000', '867.72']);
    });

    it('the retorno (5902 → 1902) brings WEG its own paint back: it names the remessa it returns; nothing posts, nothing is owed', async () => {
      const preview = await previewImport(RETORNO, 1);
      expect(preview.status).to.equal(200);
      expect(preview.body.draft.items.map((i: any) => [i.cfop, i.entryCfop, i.operationClass])).to.deep.equal([
        ['5902', '1902', 'RETURN_OF_OURS'],
      ]);
      // Mapping the returned paint is optional: a line that posts no stock needs no product.
      const res = await importXml(RETORNO, [], 1);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
      const id = res.body.entryDocument.id;
      expect(res.body.entryDocument.referencedKeys).to.deep.equal(['42260760621141000404550010009085421545851279']);
      const pre = (await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers(1))).body;
      expect(pre.blockingProblems).to.deep.equal([]);
      expect(bookings(pre.lines)).to.deep.equal([['5902', '1902', 'RETURN_OF_OURS', 'NONE', false]]);
      const note = pre.warnings.find((w: any) => w.code === 'OUR_GOODS_RETURNING');
      expect(note.message).to.contain(`NF-e 1/908542 of 2026-07 issued by ${WEG}`);
      expect((await confirm(t, id)).status).to.equal(200);
      expect(await movementsOf(t, id)).to.deep.equal([]);
      expect(await payablesOf(t, id)).to.deep.equal([]);
    });
  });

  describe(PURCHASE_2026, () => {
    it('four 5102 lines are 1102 purchases for resale: own stock at landed cost, the three duplicatas owed', async () => {
      const products = [await makeProduct(t), await makeProduct(t), await makeProduct(t), await makeProduct(t)];
      const res = await importXml(
        PURCHASE_2026,
        products.map((p, i) => ({ lineNumber: i + 1, productId: p.hash })),
      );
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
      const id = res.body.entryDocument.id;
      const pre = (await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers())).body;
      expect(pre.blockingProblems).to.deep.equal([]);
      expect(bookings(pre.lines)).to.deep.equal(Array(4).fill(['5102', '1102', 'PURCHASE_RESALE', 'OWN', true]));
      expect(pre.payables.map((x: any) => x.amount)).to.deep.equal([10791.55, 9387.17, 9387.17]);
      expect((await confirm(t, id)).status).to.equal(200);
      // (3138.16 + IPI 101.99) / 426.96 kg = 7.5888842046; (20018.79 + 650.61) / 2742.30 = 7.5372497539.
      expect(await stockOf(t, 0, products[0].id)).to.deep.equal({ quantity: '426.9600', averageCost: '7.5888842046' });
      expect(await stockOf(t, 0, products[1].id)).to.deep.equal({ quantity: '2742.3000', averageCost: '7.5372497539' });
      expect((await payablesOf(t, id)).map((x) => x.amount.toFixed(2))).to.deep.equal(['10791.55', '9387.17', '9387.17']);
      expect(await stockMismatches(t)).to.deep.equal([]);
    });
  });

  describe(IMPORT_3101, () => {
    it('the importer’s own entry note keeps its 3101 and books an IMPORT: the duty and customs costs read from the DI (its report blocks the import, the preview books it)', async () => {
      const preview = await previewImport(IMPORT_3101);
      expect(preview.status).to.equal(200);
      // Was PURCHASE_INPUT before the IMPORT class (issue 34): a 3xxx purchase is an import.
      expect(preview.body.draft.items.map((i: any) => [i.cfop, i.entryCfop, i.entryCfopSource, i.operationClass])).to.deep.equal(
        Array(3).fill(['3101', '3101', 'DECLARED', 'IMPORT']),
      );
      // Line 1: vII 6,243.50 and no vDespAdu/IOF/AFRMM; vOutro 89.06 stays the invoice's other expenses.
      expect(preview.body.draft.items[0]).to.deep.include({ otherExpenses: 89.06 });
      expect(preview.body.draft.items[0].cost.importCosts).to.deep.equal({ duty: 6243.5, customsExpenses: 0 });
      // The invoice's vOutro only (192.79): the duty (13,921.27) is no longer folded into other expenses.
      expect(preview.body.draft.totals).to.deep.include({ products: 84471.4, otherExpenses: 192.79, ipi: 11036.49 });
    });
  });

  describe('every reforma/ sample and the rest of the procNFe-* samples', () => {
    it('each line gets the entry CFOP its issuer CFOP maps to (6xxx → 2xxx, 5xxx → 1xxx), with a class', async () => {
      const files = [
        ...fs
          .readdirSync(path.join(FIXTURES, 'reforma'))
          .filter((f) => f.endsWith('.xml'))
          .map((f) => `reforma/${f}`),
        ...fs.readdirSync(FIXTURES).filter((f) => /^procNFe-v400-prod-.*\.xml$/.test(f)),
      ];
      expect(files.length).to.be.greaterThanOrEqual(15);
      for (const file of files) {
        const res = await previewImport(file);
        expect(res.status, `${file}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(200);
        for (const i of res.body.draft.items) {
          const expected = i.cfop[0] === '5' ? '1' : i.cfop[0] === '6' ? '2' : i.cfop[0];
          expect(i.entryCfop, `${file} line ${i.lineNumber} (${i.cfop})`).to.match(new RegExp(`^${expected}\\d{3}$`));
          expect(i.operationClass, `${file} line ${i.lineNumber}`).to.be.a('string');
        }
      }
    });
  });
});
