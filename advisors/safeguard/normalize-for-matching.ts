import unhomoglyph from 'unhomoglyph';

/** Characters that render as nothing: zero-width spaces and joiners, the soft hyphen, word joiners, variation selectors. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const HAS_INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const ASCII_LETTER = /[A-Za-z]/;
const NON_ASCII = /[^\x00-\x7F]/gu;
const HAS_NON_ASCII = /[^\x00-\x7F]/u;

/**
 * A text as blocked terms are matched against it (and terms are normalised the
 * same way), so that what reads the same matches the same:
 *
 * - Unicode NFKC: fullwidth, mathematical and ligature forms become plain letters;
 * - invisible characters (Unicode's default-ignorable code points: zero-width
 *   space and joiners, soft hyphen, word joiner, ...) are removed, or with
 *   `invisible: 'space'` read as a space, for one used between words;
 * - every run of whitespace is one space; letters are lower case;
 * - look-alikes: in a word that has ASCII letters (or is a single letter, as
 *   in "b о m b"), each other letter is read as the Latin letter it imitates,
 *   by Unicode's confusables table (through `unhomoglyph`), also in its
 *   capital form (Cyrillic `м` as `M`), and combining marks left over are
 *   dropped ("b̶o̶m̶b̶"). Longer words without ASCII letters are read as
 *   written, so ordinary Russian or Greek text never matches a Latin term
 *   (`рот` is not `pot`); a word spelled wholly in look-alikes of another
 *   script is therefore not caught.
 */
export function normalizeForMatching(text: string, { invisible = 'remove' }: { invisible?: 'remove' | 'space' } = {}): string {
  const spaced = text
    .normalize('NFKC')
    .replace(INVISIBLE, invisible === 'remove' ? '' : ' ')
    .replace(/\s+/gu, ' ');
  const latin = HAS_NON_ASCII.test(spaced)
    ? spaced.replace(WORD, (word) =>
        HAS_NON_ASCII.test(word) && (ASCII_LETTER.test(word) || [...word].length === 1) ? word.replace(NON_ASCII, asLatin) : word,
      )
    : spaced;
  return latin.toLowerCase();
}

/** The readings of a text a blocked term is matched against: invisible characters removed, and read as spaces. */
export function readingsForMatching(text: string): string[] {
  if (!HAS_INVISIBLE.test(text)) return [normalizeForMatching(text)];
  return [normalizeForMatching(text), normalizeForMatching(text, { invisible: 'space' })];
}

/** Latin readings by character, as found: `unhomoglyph` matches one large pattern per call. */
const latinByCharacter = new Map<string, string>();

function asLatin(character: string): string {
  let latin = latinByCharacter.get(character);
  if (latin === undefined) {
    latin = /\p{M}/u.test(character)
      ? ''
      : ([character, character.toUpperCase()].map(unhomoglyph).find((prototype) => /^[A-Za-z0-9]+$/.test(prototype)) ?? character);
    latinByCharacter.set(character, latin);
  }
  return latin;
}
