import { Dec, round, sum } from '../../core/decimal';

/*
 * The split of a freight amount over weights (SPEC §4b): each share is the amount × weight / total
 * weight rounded to the cent, and the rounding remainder goes to the largest share (of equal ones,
 * the one of the larger weight, then the first), so the shares add up to the amount exactly and no small line absorbs a visible error.
 * Zero total weight splits equally.
 */
export function splitLargestRemainder(amount: Dec, weights: Dec[]): Dec[] {
  if (!weights.length) return [];
  const total = sum(weights);
  const shares = weights.map((w) =>
    total.isZero() ? round(amount.div(weights.length), 'amount') : round(amount.times(w).div(total), 'amount'),
  );
  const remainder = amount.minus(sum(shares));
  if (!remainder.isZero()) {
    // The largest share takes it; between equal shares, the one of the larger weight (then the first).
    let largest = 0;
    shares.forEach((s, i) => {
      if (s.gt(shares[largest]) || (s.eq(shares[largest]) && weights[i].gt(weights[largest]))) largest = i;
    });
    shares[largest] = shares[largest].plus(remainder);
  }
  return shares;
}

export interface Weighted<T> {
  item: T;
  weight: Dec;
}

/**
 * Two levels: documents first (by their total weight), then each document's lines (by theirs), so
 * every document's part is exact to the cent as well as every line's.
 */
export function splitOverDocuments<D, L>(
  amount: Dec,
  documents: { document: D; lines: Weighted<L>[]; weight?: Dec }[],
): { document: D; amount: Dec; lines: { item: L; weight: Dec; amount: Dec }[] }[] {
  const docWeights = documents.map((d) => d.weight ?? sum(d.lines.map((l) => l.weight)));
  const docShares = splitLargestRemainder(amount, docWeights);
  return documents.map((d, i) => {
    const lineShares = splitLargestRemainder(
      docShares[i],
      d.lines.map((l) => l.weight),
    );
    return {
      document: d.document,
      amount: docShares[i],
      lines: d.lines.map((l, j) => ({ item: l.item, weight: l.weight, amount: lineShares[j] })),
    };
  });
}
