import { countTokens } from 'gpt-tokenizer';
import type { TextSplitter } from './document-splitter.ts';
import { createRecursiveSplitter, type RecursiveCharacterSplitterOptions } from './recursive-character-splitter.ts';
import { measureSlices, type LengthFunction } from './text-ranges.ts';
import { countTokenRanges } from './token-range-counter.ts';
import { checkFunction, checkOptions } from '../util/check-options.ts';

/** Options of `createTokenSplitter`. */
export interface TokenSplitterOptions extends Omit<RecursiveCharacterSplitterOptions, 'lengthFunction'> {
  /** Counts the tokens of a text. Default: `gpt-tokenizer` (`o200k_base`, the GPT-4o / GPT-5 encoding). */
  tokenizer?: LengthFunction;
}

const COMPONENT = 'token-splitter';

/**
 * The recursive splitter with `chunkSize` and `chunkOverlap` in tokens. Pieces are
 * counted separately and summed; BPE rarely gives a joined text more tokens than
 * its parts, so chunks stay within `chunkSize` tokens of the tokenizer used.
 *
 * @example
 * const splitter = createTokenSplitter({ chunkSize: 256, chunkOverlap: 32 });
 */
export function createTokenSplitter(options: TokenSplitterOptions): TextSplitter {
  checkOptions(options, {
    component: COMPONENT,
    known: ['chunkSize', 'chunkOverlap', 'separators', 'keepSeparator', 'metadataText', 'tokenizer'],
  });
  const { tokenizer = countTokens, ...rest } = options;
  checkFunction(tokenizer, { component: COMPONENT, argument: 'tokenizer' });
  const measure = tokenizer === countTokens ? countTokenRanges : measureSlices(tokenizer);
  return createRecursiveSplitter(COMPONENT, { ...rest, measure });
}
