import type { Document } from '../../../src/index.ts';
import { combineHits } from './combine-hits.ts';
import type { DocumentPostProcessor } from './document-post-processor.ts';
import { checkBoolean, checkNonEmptyString } from '../../../src/extension/index.ts';
import { checkRagOptions } from '../validate-rag-options.ts';

/** Options of `createSentenceWindowExpander`. */
export interface SentenceWindowExpanderOptions {
  /** Metadata key holding the window text. Default `windowText` (as the sentence-window splitter writes it). */
  readonly windowKey?: string;
  /** Merge overlapping windows of the same source document into one. Default true. */
  readonly mergeOverlapping?: boolean;
}

/**
 * Sentence-window retrieval, second half: a sentence was matched precisely,
 * and the model receives the sentences around it instead (the `windowText`
 * the sentence-window splitter stored). The matched sentence stays in
 * `metadata.originalText`. Overlapping windows of one source document (two
 * neighbouring sentences hit) are merged into one passage at the better
 * position, so the model does not read the same sentences twice; documents
 * without a window pass through unchanged.
 *
 * @example
 * const splitter = createSentenceWindowSplitter({ window: 2 });
 * retrievalAugmentationAdvisor({ retrievers: [bm25], postProcessors: [createSentenceWindowExpander()] })
 */
export function createSentenceWindowExpander(options: SentenceWindowExpanderOptions = {}): DocumentPostProcessor {
  const component = 'sentence-window-expander';
  checkRagOptions(options, { component, known: ['windowKey', 'mergeOverlapping'] });
  const { windowKey = 'windowText', mergeOverlapping = true } = options;
  checkNonEmptyString(windowKey, { component, argument: 'windowKey' });
  checkBoolean(mergeOverlapping, { component, argument: 'mergeOverlapping' });
  return {
    name: 'sentence-window',
    process(documents) {
      const expanded: Document[] = [];
      for (const document of documents) {
        const window = document.metadata[windowKey];
        if (typeof window !== 'string') {
          expanded.push(document);
          continue;
        }
        const withWindow: Document = { ...document, text: window, metadata: { originalText: document.text, ...document.metadata } };
        const span = windowSpan(withWindow);
        const overlapping = mergeOverlapping && span ? expanded.findIndex((other) => overlaps(windowSpan(other), span)) : -1;
        if (overlapping === -1) expanded.push(withWindow);
        else expanded[overlapping] = joinWindows(expanded[overlapping], withWindow, windowKey);
      }
      return expanded;
    },
  };
}

interface WindowSpan {
  readonly source: string;
  readonly start: number;
  readonly end: number;
}

function windowSpan(document: Document): WindowSpan | undefined {
  const { documentId, windowStartOffset, windowEndOffset } = document.metadata;
  if (typeof documentId !== 'string' || typeof windowStartOffset !== 'number' || typeof windowEndOffset !== 'number') return undefined;
  return { source: documentId, start: windowStartOffset, end: windowEndOffset };
}

function overlaps(a: WindowSpan | undefined, b: WindowSpan): boolean {
  return a !== undefined && a.source === b.source && a.start <= b.end && b.start <= a.end;
}

/** One passage covering both windows (their texts are slices of the same source text), at the first one's place. */
function joinWindows(first: Document, second: Document, windowKey: string): Document {
  const a = windowSpan(first)!;
  const b = windowSpan(second)!;
  const [left, right, leftSpan, rightSpan] = a.start <= b.start ? [first, second, a, b] : [second, first, b, a];
  const text = rightSpan.end <= leftSpan.end ? left.text : left.text + right.text.slice(leftSpan.end - rightSpan.start);
  return {
    ...combineHits(first, [first, second], {
      [windowKey]: text,
      windowStartOffset: leftSpan.start,
      windowEndOffset: Math.max(leftSpan.end, rightSpan.end),
    }),
    text,
  };
}
