import anyAscii from 'any-ascii';
import unhomoglyph from 'unhomoglyph';

/** Characters that render as nothing: zero-width spaces and joiners, the soft hyphen, word joiners, variation selectors. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const HAS_INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
/**
 * Diacritics, as left apart by the compatibility decomposition: the combining blocks for Latin, Greek and Cyrillic
 * (and symbols). Marks of other scripts (Japanese voicing marks, Indic vowel signs) change the letter and stay.
 */
const DIACRITICS = /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/gu;
const NON_ASCII = /[^\x00-\x7F]/gu;
const HAS_NON_ASCII = /[^\x00-\x7F]/u;
/** Latin letters beyond ASCII (small capitals, `ǫ`, `ł`, `ß`) and letter-like symbols (enclosed, squared, regional indicators). */
const LATIN_OR_SYMBOL = /^[\p{Script=Latin}\p{So}]/u;
const LATIN_OR_SYMBOL_BEYOND_ASCII = /(?![\x00-\x7F])[\p{Script=Latin}\p{So}]/gu;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

/**
 * A text as blocked terms are matched against it (and terms are normalised the
 * same way), so that what reads the same matches the same:
 *
 * - compatibility decomposition (NFKD): fullwidth, mathematical, circled and
 *   ligature forms become plain letters; diacritics come apart from their
 *   letters and are dropped (`bómb`, `b̈öm̈b̈`, `ransǫmwarȩ` read `bomb`,
 *   `ransomware`), then the rest is composed again (NFC);
 * - invisible characters (Unicode's default-ignorable code points: zero-width
 *   space and joiners, soft hyphen, word joiner, ...) are removed
 *   (`foldForMatching` also reads them as spaces, for one used between words);
 * - Latin letters beyond ASCII and letter-like symbols are read as the ASCII
 *   letters they stand for, by the AnyAscii tables (small capitals `ʙᴏᴍʙ`,
 *   squared `🅱🅾🅼🅱`, `ł`, `ß` as `ss`);
 * - look-alikes of other scripts: in a word that has ASCII letters (or is a
 *   single letter, as in "b о m b"), each other letter is read as the Latin
 *   letter it imitates, by Unicode's confusables table (through
 *   `unhomoglyph`), also in its capital form (Cyrillic `м` as `M`), and marks
 *   left over are dropped ("b̶o̶m̶b̶"). Longer words without ASCII letters are
 *   read as written, so ordinary Russian or Greek text never matches a Latin
 *   term (`рот` is not `pot`); a word spelled wholly in look-alikes of another
 *   script is therefore not caught;
 * - every run of whitespace is one space; letters are lower case.
 *
 * Linear in the length of the text and of its decomposition; bound that with
 * {@link foldForMatching} when the text is untrusted, as compatibility forms
 * expand up to 18 times (U+FDFA).
 */
export function normalizeForMatching(text: string): string {
  return finish(foldSlice(text, 'remove'));
}

/** Options of {@link foldForMatching}. */
export interface FoldForMatchingOptions {
  /** Most characters the readings may have, each; past it the texts are not read on. */
  readonly maxLength: number;
}

/**
 * The readings of `texts` together, joined by blank lines (invisible characters
 * removed, and, when there are any, also read as spaces), or `undefined` when a reading would be longer than
 * `maxLength`. The texts are decomposed a slice at a time, so a text that
 * expands 18-fold costs no more than `maxLength` characters of work before
 * it is given up.
 */
export function foldForMatching(texts: Iterable<string>, { maxLength }: FoldForMatchingOptions): string[] | undefined {
  const removed: string[] = [];
  const spaced: string[] = [];
  let withInvisible = false;
  let length = 0;
  for (const text of texts) {
    if (removed.length > 0) {
      removed.push('\n\n');
      spaced.push('\n\n');
    }
    for (const slice of slicesOf(text)) {
      const hasInvisible = HAS_INVISIBLE.test(slice);
      const folded = foldSlice(slice, 'remove');
      length += folded.length + 2;
      if (length > maxLength) return undefined;
      removed.push(folded);
      spaced.push(hasInvisible ? foldSlice(slice, 'space') : folded);
      withInvisible ||= hasInvisible;
    }
  }
  const readings = [finish(removed.join(''))];
  if (withInvisible) readings.push(finish(spaced.join('')));
  return readings;
}

const SLICE_LENGTH = 16_384;

/**
 * A text in slices of about `SLICE_LENGTH` characters, cut after a whitespace
 * character where there is one near the end, so words stay whole, and never
 * inside a surrogate pair.
 */
function* slicesOf(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > SLICE_LENGTH) {
    let end = start + SLICE_LENGTH;
    const space = lastWhitespace(text, end, end - 1024);
    if (space > start) end = space + 1;
    else if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
}

function lastWhitespace(text: string, before: number, notBefore: number): number {
  for (let index = before - 1; index >= notBefore; index--) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) return index;
  }
  return -1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function foldSlice(text: string, invisible: 'remove' | 'space'): string {
  const composed = text
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .normalize('NFC')
    .replace(INVISIBLE, invisible === 'remove' ? '' : ' ');
  if (!HAS_NON_ASCII.test(composed)) return composed;
  const latin = composed.replace(LATIN_OR_SYMBOL_BEYOND_ASCII, asLatin);
  return HAS_NON_ASCII.test(latin) ? foldMixedWords(latin) : latin;
}

/**
 * Reads the other scripts' letters of each word that has ASCII letters, or is
 * one letter, as the Latin letters they imitate. One pass over the text's
 * code points: a regular expression with a callback per word costs five
 * times as much on text of short words.
 */
function foldMixedWords(text: string): string {
  const folded: string[] = [];
  let copiedTo = 0;
  let wordStart = -1;
  let hasAsciiLetter = false;
  let hasNonAscii = false;
  let characters = 0;
  for (let index = 0; index <= text.length;) {
    const code = index < text.length ? text.codePointAt(index)! : -1;
    if (code >= 0 && isWordCharacter(code)) {
      if (wordStart < 0) {
        wordStart = index;
        hasAsciiLetter = hasNonAscii = false;
        characters = 0;
      }
      if (code >= 0x80) hasNonAscii = true;
      else if (code >= 0x41) hasAsciiLetter = true;
      characters++;
    } else if (wordStart >= 0) {
      if (hasNonAscii && (hasAsciiLetter || characters === 1)) {
        folded.push(text.slice(copiedTo, wordStart), text.slice(wordStart, index).replace(NON_ASCII, asLatinInMixedWord));
        copiedTo = index;
      }
      wordStart = -1;
    }
    index += code > 0xffff ? 2 : 1;
  }
  if (copiedTo === 0) return text;
  folded.push(text.slice(copiedTo));
  return folded.join('');
}

const WORD_CHARACTER = /^[\p{L}\p{M}\p{N}\p{So}]$/u;
/** Whether each Basic Multilingual Plane character is part of a word: 0 not yet known, 1 yes, 2 no. */
const bmpWordCharacters = new Uint8Array(0x10000);
const astralWordCharacters = new Map<number, boolean>();

function isWordCharacter(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  if (code > 0xffff) {
    let known = astralWordCharacters.get(code);
    if (known === undefined) astralWordCharacters.set(code, (known = WORD_CHARACTER.test(String.fromCodePoint(code))));
    return known;
  }
  if (bmpWordCharacters[code] === 0) bmpWordCharacters[code] = WORD_CHARACTER.test(String.fromCharCode(code)) ? 1 : 2;
  return bmpWordCharacters[code] === 1;
}

function finish(folded: string): string {
  return folded.replace(/\s+/gu, ' ').toLowerCase();
}

/** ASCII readings by character, as found: both libraries match one large table per call. */
const latinByCharacter = new Map<string, string>();
const lookAlikeByCharacter = new Map<string, string>();

/** A Latin letter or letter-like symbol as the ASCII letters it stands for; other scripts as written. */
function asLatin(character: string): string {
  let latin = latinByCharacter.get(character);
  if (latin === undefined) {
    const ascii = LATIN_OR_SYMBOL.test(character) ? anyAscii(character) : '';
    latin = ALPHANUMERIC.test(ascii) ? ascii : character;
    latinByCharacter.set(character, latin);
  }
  return latin;
}

/** In a word with ASCII letters, also the Latin letter another script's letter imitates; marks are dropped. */
function asLatinInMixedWord(character: string): string {
  let latin = lookAlikeByCharacter.get(character);
  if (latin === undefined) {
    const ascii = asLatin(character);
    latin =
      ascii !== character
        ? ascii
        : /\p{M}/u.test(character)
          ? ''
          : ([character, character.toUpperCase()].map(unhomoglyph).find((prototype) => ALPHANUMERIC.test(prototype)) ?? character);
    lookAlikeByCharacter.set(character, latin);
  }
  return latin;
}
