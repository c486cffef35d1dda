import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** A sparse vector as Qdrant stores it: unique dimension indices and their weights. */
export interface SparseVector {
  readonly indices: number[];
  readonly values: number[];
}

/** Turns text into a sparse vector for lexical matching (term hashing, SPLADE, BM42, ...). */
export type SparseEncoder = (text: string) => SparseVector | Promise<SparseVector>;

/**
 * A model-free sparse encoder: words (Unicode word segmentation, so CJK text
 * splits too) are lower-cased, hashed into `2^bits` dimensions and weighted
 * `1 + ln(tf)`. Paired with the collection's `idf` modifier, Qdrant scores it
 * like TF-IDF, which is enough for hybrid search without a sparse model.
 *
 * @example
 * const store = createQdrantVectorStore({
 *   url: 'http://localhost:6333',
 *   collection: 'docs',
 *   embeddingModel,
 *   sparse: { encoder: createHashingSparseEncoder() },
 * });
 */
export function createHashingSparseEncoder({ bits = 24, locale = 'und' }: { bits?: number; locale?: string } = {}): SparseEncoder {
  if (!Number.isInteger(bits) || bits < 8 || bits > 32) {
    throw new AdvisorArgumentError({
      component: 'sparse-encoder',
      argument: 'bits',
      message: `expected an integer from 8 to 32, got ${describeValue(bits)}`,
    });
  }
  const segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
  const space = 2 ** bits;
  return (text) => {
    const counts = new Map<number, number>();
    for (const segment of segmenter.segment(text.toLowerCase())) {
      if (!segment.isWordLike) continue;
      const index = fnv1a(segment.segment) % space;
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    const indices = [...counts.keys()].sort((a, b) => a - b);
    return { indices, values: indices.map((index) => 1 + Math.log(counts.get(index) ?? 1)) };
  };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
