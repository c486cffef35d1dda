import type { TextSplitter } from './document-splitter.ts';
import { rangeSplitter, type MetadataText } from './range-splitter.ts';
import {
  chunkRanges,
  measureSlices,
  separatorLevel,
  type LengthFunction,
  type SeparatorPlacement,
  type TextMeasure,
} from './text-ranges.ts';
import { assertChunkSizes, assertKeepSeparator, assertSeparators } from './validate-options.ts';
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
   * at the following ones. `''` cuts between characters. Chunks are exact slices
   * of the source, so a separator inside a chunk stays in its text.
   */
  separators?: readonly (string | RegExp)[];
  /**
   * Where a separator goes at a cut: `'end'` (default) ends the chunk before it,
   * as the `.` of a sentence does; `'start'` starts the chunk after it, as a
   * Markdown `## ` heading marker should; `false` drops it at a chunk's start or
   * end. Whitespace is trimmed off chunks and never counted, whatever this says.
   */
  keepSeparator?: SeparatorPlacement;
  /**
   * The text of a document's metadata that the model will see next to each of
   * its chunks (the title, the source): measured like the chunks and taken off
   * `chunkSize` for that document's chunks, so that chunk and metadata together
   * fit. `splitText` has no metadata and uses the whole `chunkSize`.
   */
  metadataText?: MetadataText;
  /** Measures a piece of text. Default: its length in UTF-16 code units. */
  lengthFunction?: LengthFunction;
}

const COMPONENT = 'recursive-character-splitter';

/**
 * Splits text recursively at paragraphs, lines, sentences (`. ! ?` and `。！？`),
 * words and finally characters, breaking at the coarsest boundary that keeps
 * chunks within `chunkSize`: the text is cut at the first separator that occurs
 * in it and its pieces packed into chunks; a piece too large for a chunk is split
 * the same way at the next separators, and its chunks are never packed with the
 * pieces around it, so a chunk does not straddle a paragraph to fill itself up.
 * Sizes are those of the trimmed chunks: whitespace around a chunk does not count.
 *
 * @example
 * const splitter = createRecursiveCharacterSplitter({ chunkSize: 1000, chunkOverlap: 100 });
 * const chunks = splitter.split(documents); // ids `<document id>#0`, `#1`, ...
 *
 * @example
 * // Markdown: cut before headings, keeping each `## ` with the section it opens.
 * const markdown = createRecursiveCharacterSplitter({
 *   chunkSize: 1500,
 *   separators: [/^## /m, '\n\n', '\n', ' ', ''],
 *   keepSeparator: 'start',
 * });
 *
 * @example
 * // Each chunk is shown to the model with its document's title: keep both within 512.
 * const titled = createRecursiveCharacterSplitter({ chunkSize: 512, metadataText: (metadata) => `Title: ${metadata.title}\n` });
 */
export function createRecursiveCharacterSplitter(options: RecursiveCharacterSplitterOptions): TextSplitter {
  checkOptions(options, {
    component: COMPONENT,
    known: ['chunkSize', 'chunkOverlap', 'separators', 'keepSeparator', 'metadataText', 'lengthFunction'],
  });
  const { lengthFunction = (text: string) => text.length, ...rest } = options;
  checkFunction(lengthFunction, { component: COMPONENT, argument: 'lengthFunction' });
  return createRecursiveSplitter(COMPONENT, { ...rest, measure: measureSlices(lengthFunction) });
}

export interface RecursiveSplitterOptions extends Omit<RecursiveCharacterSplitterOptions, 'lengthFunction'> {
  measure: TextMeasure;
}

/** The recursive splitter behind `component`, for factories that validated their own option names. */
export function createRecursiveSplitter(component: string, options: RecursiveSplitterOptions): TextSplitter {
  const { chunkSize, chunkOverlap = 0, separators = DEFAULT_SEPARATORS, keepSeparator = 'end', metadataText, measure } = options;
  assertChunkSizes(component, chunkSize, chunkOverlap);
  assertSeparators(component, separators);
  assertKeepSeparator(component, keepSeparator);
  const levels = separators.map((separator) => separatorLevel(separator, keepSeparator));
  const rangeOptions = { chunkOverlap, measure, levels, packing: 'coarsest' } as const;
  return rangeSplitter(component, (text, size) => chunkRanges(text, { ...rangeOptions, chunkSize: size }), {
    chunkSize,
    chunkOverlap,
    measure,
    metadataText,
  });
}
