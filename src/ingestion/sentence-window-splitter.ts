import { toChunkDocuments } from './chunk-documents.ts';
import type { TextSplitter } from './document-splitter.ts';
import { sentenceBoundary, sentenceRanges, type SentenceSegmentationOptions } from './sentence-boundaries.ts';
import { assertDocuments } from './validate-options.ts';
import { checkNonNegativeInteger, checkOptions } from '../util/check-options.ts';

/** Options of `createSentenceWindowSplitter`. */
export interface SentenceWindowSplitterOptions extends SentenceSegmentationOptions {
  /** Sentences kept on each side of a sentence in its `windowText`. Default 3. */
  window?: number;
}

const COMPONENT = 'sentence-window-splitter';

/**
 * One document per sentence, for sentence-window retrieval: the sentence alone is
 * embedded and matched precisely, and a post-processor hands the model its
 * surroundings instead. Metadata: `originalText` (the sentence), `windowText`
 * (the sentence with `window` neighbours on each side, as they stand in the
 * source), `windowStartOffset`/`windowEndOffset`, plus the usual chunk fields.
 *
 * @example
 * const splitter = createSentenceWindowSplitter({ window: 2 });
 */
export function createSentenceWindowSplitter(options: SentenceWindowSplitterOptions = {}): TextSplitter {
  checkOptions(options, { component: COMPONENT, known: ['window', 'locale', 'splitOnSemicolon', 'abbreviations'] });
  const { window = 3 } = options;
  checkNonNegativeInteger(window, { component: COMPONENT, argument: 'window' });
  const sentences = sentenceBoundary(COMPONENT, options);
  return {
    split(documents) {
      assertDocuments(COMPONENT, documents);
      return documents.flatMap((document) => {
        const ranges = sentenceRanges(document.text, sentences);
        return toChunkDocuments(document, ranges, {
          metadata: (range, index) => {
            const windowStart = ranges[Math.max(0, index - window)].start;
            const windowEnd = ranges[Math.min(ranges.length - 1, index + window)].end;
            return {
              originalText: document.text.slice(range.start, range.end),
              windowText: document.text.slice(windowStart, windowEnd),
              windowStartOffset: windowStart,
              windowEndOffset: windowEnd,
            };
          },
        });
      });
    },
    splitText(text) {
      return sentenceRanges(text, sentences).map(({ start, end }) => text.slice(start, end));
    },
  };
}
