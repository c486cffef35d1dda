import type { TextSplitter } from './document-splitter.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { rangeSplitter, type MetadataText } from './range-splitter.ts';
import { sentenceBoundary, sentenceCutLevels, sentenceRanges, type SentenceSegmentationOptions } from './sentence-boundaries.ts';
import { chunkRanges, measureSlices, type LengthFunction } from './text-ranges.ts';
import { assertChunkSizes } from './validate-options.ts';
import { checkFunction, checkOptions } from '../util/check-options.ts';

/** Options of `createSentenceSplitter`. */
export interface SentenceSplitterOptions extends SentenceSegmentationOptions {
  /**
   * Pack whole sentences into chunks of at most this size (by `lengthFunction`);
   * a longer sentence is cut at words. Omit for one chunk per sentence.
   */
  chunkSize?: number;
  /** With `chunkSize`: how much of a chunk's tail (whole sentences) starts the next. Default 0. */
  chunkOverlap?: number;
  /**
   * With `chunkSize`: the text of a document's metadata the model sees next to
   * each chunk, taken off `chunkSize` for that document (see the recursive splitter).
   */
  metadataText?: MetadataText;
  /** Measures text for `chunkSize`. Default: UTF-16 length; pass a token counter for tokens. */
  lengthFunction?: LengthFunction;
}

const COMPONENT = 'sentence-splitter';

/**
 * Splits at sentence ends in English and CJK text (`。！？`, optionally `；`),
 * using `Intl.Segmenter`, either one chunk per sentence or sentences packed up to
 * `chunkSize`. A sentence does not end after an abbreviation such as `Dr.` (see
 * `SENTENCE_ABBREVIATIONS`). A sentence longer than `chunkSize` is cut at words,
 * and its pieces are packed with the sentences around it.
 *
 * @example
 * const splitter = createSentenceSplitter({ chunkSize: 512, chunkOverlap: 64 });
 * splitter.splitText('第一句。第二句！Third one? Fourth.');
 *
 * @example
 * // Company forms are not sentence ends either.
 * const legal = createSentenceSplitter({ abbreviations: [...SENTENCE_ABBREVIATIONS.en, 'S.A.', 'GmbH.'] });
 * legal.splitText('The S.A. Broda Company signed. Dr. Noel agreed.'); // two sentences
 */
export function createSentenceSplitter(options: SentenceSplitterOptions = {}): TextSplitter {
  checkOptions(options, {
    component: COMPONENT,
    known: ['chunkSize', 'chunkOverlap', 'lengthFunction', 'metadataText', 'locale', 'splitOnSemicolon', 'abbreviations'],
  });
  const { chunkSize, chunkOverlap = 0, lengthFunction = (text: string) => text.length, metadataText, locale } = options;
  const sentences = sentenceBoundary(COMPONENT, options);
  if (chunkSize === undefined) {
    if (metadataText !== undefined) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'metadataText',
        message: 'needs chunkSize, the budget it is taken from',
      });
    }
    return rangeSplitter(COMPONENT, (text) => sentenceRanges(text, sentences));
  }
  assertChunkSizes(COMPONENT, chunkSize, chunkOverlap);
  checkFunction(lengthFunction, { component: COMPONENT, argument: 'lengthFunction' });
  const measure = measureSlices(lengthFunction);
  const rangeOptions = {
    chunkOverlap,
    measure,
    levels: sentenceCutLevels(sentences, locale),
    packing: 'greedy',
  } as const;
  return rangeSplitter(COMPONENT, (text, size) => chunkRanges(text, { ...rangeOptions, chunkSize: size }), {
    chunkSize,
    chunkOverlap,
    measure,
    metadataText,
  });
}
