/**
 * Scripts written without spaces between words; a run of them needs a
 * dictionary segmenter rather than a whitespace/punctuation split.
 */
const UNSPACED_SCRIPTS = String.raw`\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}`;
/**
 * Letters, marks and digits of those scripts. CJK punctuation (。、「」《》・) shares
 * their script extensions, so without the intersection it would become terms.
 */
const UNSPACED_CHAR = String.raw`[[\p{L}\p{M}\p{N}]&&[${UNSPACED_SCRIPTS}]]`;
const WORD_CHAR = String.raw`[[\p{L}\p{M}\p{N}\p{Pc}]--[${UNSPACED_SCRIPTS}]]`;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Longest term, in UTF-16 code units: Lucene's StandardTokenizer default
 * `maxTokenLength`. As there, a longer word is split into pieces of at most
 * this length rather than dropped, so a hostile document cannot make a
 * megabyte term and the text of a long word stays searchable.
 */
export const MAX_TERM_LENGTH = 255;

/**
 * Approximates Unicode word boundaries (UAX #29, as Lucene's StandardTokenizer
 * applies them) at regex speed: letters, digits and connectors form a word;
 * an apostrophe, dot or middle dot between word characters keeps it whole
 * (`don't`, `e.g`, `3.5`), and so does a comma or semicolon between digits (`1,000`).
 */
const TOKEN = new RegExp(String.raw`(${WORD_CHAR}+(?:(?:['’.·]|(?<=\p{N})[,;](?=\p{N}))${WORD_CHAR}+)*)|(${UNSPACED_CHAR}+)`, 'gv');

/**
 * Walks `text` once, reporting each space-delimited-script word and each run of
 * unspaced-script text (Chinese, Japanese, Thai, ...) in order of appearance.
 * Punctuation and symbols are skipped, and so is a word with no letter or
 * digit (a lone `_`); a word longer than {@link MAX_TERM_LENGTH} is reported
 * in pieces of that length.
 */
export function scanWords(text: string, onWord: (word: string) => void, onUnspacedRun: (run: string) => void): void {
  // A private stateful regex with an exec loop: measurably cheaper than matchAll on large corpora.
  const token = new RegExp(TOKEN);
  let match: RegExpExecArray | null;
  while ((match = token.exec(text)) !== null) {
    const word = match[1];
    if (word === undefined) onUnspacedRun(match[2]);
    else if (word.length > MAX_TERM_LENGTH) splitLongWord(word, onWord);
    else if (hasLetterOrDigit(word)) onWord(word);
  }
}

/** Reports `word` in pieces of at most {@link MAX_TERM_LENGTH} characters, as Lucene's tokenizer splits a longer token. */
export function splitLongWord(word: string, onWord: (word: string) => void): void {
  let start = 0;
  while (start < word.length) {
    let end = Math.min(start + MAX_TERM_LENGTH, word.length);
    // Never cut a surrogate pair in half.
    if (end < word.length && isHighSurrogate(word.charCodeAt(end - 1))) end -= 1;
    const piece = word.slice(start, end);
    if (hasLetterOrDigit(piece)) onWord(piece);
    start = end;
  }
}

function hasLetterOrDigit(word: string): boolean {
  const first = word.charCodeAt(0);
  // Nearly every word starts with an ASCII letter or digit; skipping the Unicode test for those keeps indexing fast.
  if ((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a) || (first >= 0x30 && first <= 0x39)) return true;
  return LETTER_OR_DIGIT.test(word);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
