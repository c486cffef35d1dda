import type { TextSplitter } from './document-splitter.ts';
import { rangeSplitter } from './range-splitter.ts';
import { chunkRanges, measureSlices, separatorBoundary, type LengthFunction, type TextMeasure } from './text-ranges.ts';
import { assertChunkSizes, assertSeparators } from './validate-options.ts';
import { checkFunction, checkOptions } from '../util/check-options.ts';

/**
 * Ends of sentences in Latin and CJK scripts: terminal punctuation with any
 * closing quotes or brackets, then whitespace (Latin) or nothing (CJK).
 */
export const SENTENCE_END_SEPARATOR = /[.!?]+["'”’)\]]*\s+|[。！？]+[」』”’）]*\s*/;

/** Paragraphs, lines, sentences, words, then characters. */
export const DEFAULT_SEPARATORS: readonly (string | RegExp)[] = ['\n\n', '\n', SENTENCE_END_SEPARATOR, ' ', ''];

/** Options of `createRecursiveCharacterSplitter`. */
export interface RecursiveCharacterSplitterOptions {
  /** Largest chunk, measured by `lengthFunction` (characters by default). */
  chunkSize: number;
  /** How much of a chunk's tail starts the next chunk. Default 0; must be smaller than `chunkSize`. */
  chunkOverlap?: number;
  /**
   * Where text may be cut, coarsest first. A piece larger than `chunkSize` is cut
   * at the first separator that occurs in it, and its pieces, if still too large,
   * at the following ones. `''` cuts between characters. Separators stay in the
   * chunk text, so chunks are exact slices of the source.
   */
  separators?: readonly (string | RegExp)[];
  /** Measures a piece of text. Default: its length in UTF-16 code units. */
  lengthFunction?: LengthFunction;
}

const COMPONENT = 'recursive-character-splitter';

/**
 * Splits text recursively at paragraphs, lines, sentences (`. ! ?` and `。！？`),
 * words and finally characters, so that chunks stay within `chunkSize` while
 * breaking at the coarsest possible boundary.
 *
 * @example
 * const splitter = createRecursiveCharacterSplitter({ chunkSize: 1000, chunkOverlap: 100 });
 * const chunks = splitter.split(documents); // ids `<document id>#0`, `#1`, ...
 */
export function createRecursiveCharacterSplitter(options: RecursiveCharacterSplitterOptions): TextSplitter {
  checkOptions(options, { component: COMPONENT, known: ['chunkSize', 'chunkOverlap', 'separators', 'lengthFunction'] });
  const { lengthFunction = (text: string) => text.length, ...rest } = options;
  checkFunction(lengthFunction, { component: COMPONENT, argument: 'lengthFunction' });
  return createRecursiveSplitter(COMPONENT, { ...rest, measure: measureSlices(lengthFunction) });
}

export interface RecursiveSplitterOptions extends Omit<RecursiveCharacterSplitterOptions, 'lengthFunction'> {
  measure: TextMeasure;
}

/** The recursive splitter behind `component`, for factories that validated their own option names. */
export function createRecursiveSplitter(component: string, options: RecursiveSplitterOptions): TextSplitter {
  const { chunkSize, chunkOverlap = 0, separators = DEFAULT_SEPARATORS, measure } = options;
  assertChunkSizes(component, chunkSize, chunkOverlap);
  assertSeparators(component, separators);
  const rangeOptions = { chunkSize, chunkOverlap, measure, boundaries: separators.map(separatorBoundary) };
  return rangeSplitter(component, (text) => chunkRanges(text, rangeOptions));
}
