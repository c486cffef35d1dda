import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { abbreviationCheck } from './sentence-abbreviations.ts';
import { rangesBetweenCuts, separatorLevel, trimRange, type CutLevel, type TextBoundary, type TextRange } from './text-ranges.ts';
import { checkBoolean } from '../util/check-options.ts';
import { describeValue } from '../context/context-key.ts';

/** How the sentence-based splitters find sentence boundaries. */
export interface SentenceSegmentationOptions {
  /** BCP 47 locale for `Intl.Segmenter`'s sentence rules. Default: the runtime's locale. */
  locale?: string;
  /** Also end a sentence at the full-width semicolon `；`. Default false. */
  splitOnSemicolon?: boolean;
  /**
   * Words ending in a period after which a sentence does not end, such as `Dr.`
   * or `e.g.`. Default: `SENTENCE_ABBREVIATIONS` for `locale`'s language (English
   * when none is listed). Replaces the default: spread it to extend it.
   */
  abbreviations?: readonly string[];
}

/**
 * Sentence ends by `Intl.Segmenter` (Unicode sentence rules, which know `. ! ?`
 * and abbreviations before lowercase words) except after one of `abbreviations`,
 * plus a cut after every CJK
 * terminator `。！？` (and `；` when asked) with its closing quotes, whatever
 * follows it, so CJK text without spaces always splits there.
 */
export function sentenceBoundary(component: string, options: SentenceSegmentationOptions): TextBoundary {
  const { locale, splitOnSemicolon = false, abbreviations } = options;
  if (locale !== undefined && typeof locale !== 'string') {
    throw new AdvisorArgumentError({
      component,
      argument: 'locale',
      message: `expected a BCP 47 language tag, got ${describeValue(locale)}`,
    });
  }
  checkBoolean(splitOnSemicolon, { component, argument: 'splitOnSemicolon' });
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  } catch (error) {
    throw new AdvisorArgumentError({ component, argument: 'locale', message: (error as Error).message });
  }
  const endsSentence = abbreviationCheck(component, abbreviations, locale);
  const cjkSentenceEnd = splitOnSemicolon ? /[。！？；]+[」』”’）]*/g : /[。！？]+[」』”’）]*/g;
  return (text) => {
    const cuts = new Set<number>();
    // Trailing whitespace goes to the next sentence, as BPE tokenizers attach spaces to the word after them.
    for (const { index, segment } of segmenter.segment(text)) {
      const cut = index + segment.trimEnd().length;
      if (endsSentence(text, cut)) cuts.add(cut);
    }
    for (const match of text.matchAll(cjkSentenceEnd)) cuts.add(match.index + match[0].length);
    return [...cuts].filter((cut) => cut > 0 && cut < text.length).sort((a, b) => a - b);
  };
}

/** The sentences of `text` as trimmed, non-empty ranges. */
export function sentenceRanges(text: string, boundary: TextBoundary): TextRange[] {
  const ranges: TextRange[] = [];
  for (const range of rangesBetweenCuts(text.length, boundary(text))) {
    const trimmed = trimRange(text, range);
    if (trimmed.end > trimmed.start) ranges.push(trimmed);
  }
  return ranges;
}

/** Word boundaries by `Intl.Segmenter`, which also segments CJK text without spaces. */
export function wordBoundary(locale: string | undefined): TextBoundary {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
  return function* (text) {
    for (const { index } of segmenter.segment(text)) if (index > 0) yield index;
  };
}

/** Cut levels for packing sentences: sentence ends, then words for a sentence too long, then characters. */
export function sentenceCutLevels(sentences: TextBoundary, locale: string | undefined): CutLevel[] {
  return [{ boundary: sentences }, { boundary: wordBoundary(locale) }, separatorLevel('')];
}
