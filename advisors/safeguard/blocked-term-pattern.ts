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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
