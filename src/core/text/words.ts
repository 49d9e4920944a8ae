import { normalizeText } from '../br-documents';

/*
 * The one word folding every search index uses (product names, customers, sellers): accents and
 * case folded, split on anything but letters and digits. An index stores the folded words of a
 * name; a search term is folded the same way and each of its words must start some stored word.
 */

/** Longest stored word (the index columns' width); longer words are stored and searched clipped. */
export const TOKEN_MAX_LENGTH = 40;
/** Words of a search term beyond this many are ignored (each costs one index probe). */
export const MAX_QUERY_WORDS = 8;

const clip = (w: string) => w.slice(0, TOKEN_MAX_LENGTH);

/** The folded words of a text, in order, clipped to the index width, without repeats. */
export function foldWords(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set(normalizeText(text).split(' ').filter(Boolean).map(clip))];
}

/** The index words of several texts (a name and a trade name or alias) together. */
export function indexWords(...texts: (string | null | undefined)[]): string[] {
  return [...new Set(texts.flatMap((t) => foldWords(t)))];
}

/**
 * Index words as one string, each word preceded by a space: whether some word starts with W is then
 * `LIKE '% W%'` on that one value (folded words hold letters and digits only, never a wildcard).
 */
export function spacedWords(words: string[]): string {
  return words.map((w) => ` ${w}`).join('');
}

/** The words of a search term, each to be matched as the start of some indexed word. */
export function queryWords(term: string): string[] {
  return foldWords(term).slice(0, MAX_QUERY_WORDS);
}
