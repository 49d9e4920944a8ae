import { expect } from 'chai';
import { profile, rank, similarity, similarityTokens } from '../../src/modules/product-map/similarity';

describe('Product map: description similarity (unit)', () => {
  describe('normalization', () => {
    it('case, accents and punctuation', () => {
      expect(similarityTokens('Feijão Carioca - Tipo 1')).to.deep.equal(['FEIJAO', 'CARIOCA', 'TIPO', '1']);
      expect(similarityTokens('CAFÉ TORRADO/MOÍDO')).to.deep.equal(['CAFE', 'TORRADO', 'MOIDO']);
    });
    it('measures become one token in a base unit, however they are written', () => {
      for (const s of ['350ML', '350 ml', '350 Ml.', '350mls']) expect(similarityTokens(s)).to.deep.equal(['350ML']);
      for (const s of ['2L', '2 LT', '2 litros', '2000ml']) expect(similarityTokens(s)).to.deep.equal(['2000ML']);
      expect(similarityTokens('1,5L')).to.deep.equal(['1500ML']);
      expect(similarityTokens('5 KG')).to.deep.equal(['5000G']);
      expect(similarityTokens('500gr')).to.deep.equal(['500G']);
    });
    it('packaging and unit words: LT/LATA, UN/UND/UNID, CX/CAIXA, C/ and S/', () => {
      expect(similarityTokens('LT')).to.deep.equal(['LATA']);
      expect(similarityTokens('Lata')).to.deep.equal(['LATA']);
      expect(similarityTokens('UND')).to.deep.equal(['UN']);
      expect(similarityTokens('unidade')).to.deep.equal(['UN']);
      expect(similarityTokens('CAIXA C/12')).to.deep.equal(['CX', 'COM', '12']);
      expect(similarityTokens('AGUA S/GAS')).to.not.deep.equal(similarityTokens('AGUA C/GAS'));
    });
    it('drops words without meaning and repeats', () => {
      expect(similarityTokens('Pão de Queijo de Minas')).to.deep.equal(['PAO', 'QUEIJO', 'MINAS']);
    });
  });

  describe('score', () => {
    it('is 1 for the same canonical tokens in any order and near 0 for no word in common', () => {
      expect(similarity('CERVEJA PILSEN LATA 350ML', 'Cerveja Pilsen 350ml lata')).to.equal(1);
      expect(similarity('ARROZ BRANCO 5KG', 'Detergente Neutro 500ml')).to.be.below(0.1);
      expect(similarity('', 'Arroz')).to.equal(0);
    });
    it('is symmetric and within 0..1', () => {
      const pairs = [
        ['CERV PILSEN LT 350ML', 'Cerveja Pilsen 350ml lata'],
        ['REFRIG COLA 2L', 'Refrigerante Cola PET 2 litros'],
        ['X', 'Y Z'],
      ];
      for (const [a, b] of pairs) {
        const s = similarity(a, b);
        expect(s).to.equal(similarity(b, a));
        expect(s).to.be.within(0, 1);
      }
    });
    it('abbreviations score high but below the exact name', () => {
      const abbreviated = similarity('CERV PILSEN LT 350ML', 'Cerveja Pilsen 350ml lata');
      expect(abbreviated).to.be.above(0.8).and.below(1);
    });
  });

  describe('rank', () => {
    const decoys = [
      'Cerveja Pilsen 600ml garrafa',
      'Cerveja Puro Malte lata 350ml',
      'Cerveja Pilsen Lata 473ml',
      'Refrigerante Cola Lata 350ml',
      'Chopp Pilsen 350ml',
      'Cerveja Pilsen 350ml lata',
      'Cerveja Pilsen 350ml long neck',
      'Pilsen Copo 350ml',
    ];
    it('"CERVEJA PILSEN LATA 350ML" is closest to "Cerveja Pilsen 350ml lata" among decoys', () => {
      const ranked = rank(profile('CERVEJA PILSEN LATA 350ML'), decoys, (d) => profile(d), 5);
      expect(ranked[0].candidate).to.equal('Cerveja Pilsen 350ml lata');
      expect(ranked[0].score).to.equal(1);
      expect(ranked[1].score).to.be.below(ranked[0].score);
      expect(ranked).to.have.length(5);
      for (let i = 1; i < ranked.length; i++) expect(ranked[i].score).to.be.at.most(ranked[i - 1].score);
    });
    it("keeps the top N above the minimum score; ties keep the candidates' order", () => {
      const ranked = rank(profile('Arroz 5kg'), ['Arroz 5kg', 'Arroz 5 KG', 'Sabão em pó'], (d) => profile(d), 5, 0.3);
      expect(ranked.map((r) => r.candidate)).to.deep.equal(['Arroz 5kg', 'Arroz 5 KG']);
    });
  });
});
