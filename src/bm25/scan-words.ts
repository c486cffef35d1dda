/**
 * Scripts written without spaces between words; a run of them needs a
 * dictionary segmenter rather than a whitespace/punctuation split.
 */
const UNSPACED_SCRIPTS = String.raw`\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}`;
const WORD_CHAR = String.raw`[[\p{L}\p{M}\p{N}\p{Pc}]--[${UNSPACED_SCRIPTS}]]`;

/**
 * Approximates Unicode word boundaries (UAX #29, as Lucene's StandardTokenizer
 * applies them) at regex speed: letters, digits and connectors form a word;
 * an apostrophe, dot or middle dot between word characters keeps it whole
 * (`don't`, `e.g`, `3.5`), and so does a comma or semicolon between digits (`1,000`).
 */
const TOKEN = new RegExp(
  String.raw`(${WORD_CHAR}+(?:(?:['’.·]|(?<=\p{N})[,;](?=\p{N}))${WORD_CHAR}+)*)|([${UNSPACED_SCRIPTS}]+)`,
  'gv',
);

/**
 * Walks `text` once, reporting each space-delimited-script word and each run of
 * unspaced-script text (Chinese, Japanese, Thai, ...) in order of appearance.
 */
export function scanWords(
  text: string,
  onWord: (word: string) => void,
  onUnspacedRun: (run: string) => void,
): void {
  // A private stateful regex with an exec loop: measurably cheaper than matchAll on large corpora.
  const token = new RegExp(TOKEN);
  let match: RegExpExecArray | null;
  while ((match = token.exec(text)) !== null) {
    const word = match[1];
    if (word !== undefined) onWord(word);
    else onUnspacedRun(match[2]);
  }
}
