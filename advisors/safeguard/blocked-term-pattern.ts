import { normalizeForMatching } from './normalize-for-matching.ts';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Finds a blocked term in a text normalised by `normalizeForMatching` (the
 * term is normalised alike): as a whole word, or anywhere for a CJK term. A
 * term of three or more letters also matches spelled out with one space
 * between its letters ("b o m b"), even among other one-letter words ("a b o
 * m b"); shorter terms do not, as runs like "a b" occur in ordinary text.
 */
export function blockedTermPattern(term: string): RegExp {
  const normalized = normalizeForMatching(term).trim();
  if (CJK.test(normalized)) return new RegExp(escapeRegExp(normalized), 'u');
  const letters = [...normalized];
  const spelledOut = letters.length >= 3 && /^\p{L}+$/u.test(normalized) ? `|${letters.map(escapeRegExp).join(' ')}` : '';
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${escapeRegExp(normalized)}${spelledOut})(?![\\p{L}\\p{N}])`, 'u');
}

/**
 * The first of `terms` found in a normalised text, by one pass of one
 * pattern whatever the number of terms.
 */
export function blockedTermsMatcher(terms: readonly string[]): (normalizedText: string) => string | undefined {
  if (terms.length === 0) return () => undefined;
  const anyTerm = new RegExp(terms.map((term) => `(${blockedTermPattern(term).source})`).join('|'), 'u');
  return (normalizedText) => {
    const match = anyTerm.exec(normalizedText);
    if (match === null) return undefined;
    return terms[match.findIndex((group, index) => index > 0 && group !== undefined) - 1];
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
