import { describeValue } from '../../src/extension/index.ts';
import { contextKey } from '../../src/index.ts';
import type { FilterExpression } from '../../src/index.ts';
import { resolveFilter } from '../../src/filter/index.ts';

const MAX_TOP_K = 1000;

/**
 * A per-call metadata filter for the RAG advisors, as Spring AI filter text
 * (`"genre == 'drama' && year >= 2020"`) or a filter expression. It is parsed
 * when read, so a malformed filter fails the turn before any retrieval, and it
 * is always AND-ed with the advisor's own (tenant) filter, never replacing it.
 *
 * @example
 * await chat.generate({ prompt: 'What changed in the refund policy?', context: { [RagFilter.name]: "lang == 'en'" } });
 */
export const RagFilter = contextKey<FilterExpression | string>('ragFilter', {
  parse(value) {
    resolveFilter(value as FilterExpression | string);
    return value as FilterExpression | string;
  },
});

/** Per-call override of `topK`, how many documents a RAG advisor injects (each retriever recalls at least as many). */
export const RagTopK = contextKey<number>('ragTopK', {
  parse(value) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_TOP_K) {
      throw new TypeError(`expected an integer from 1 to ${MAX_TOP_K}, got ${describeValue(value)}`);
    }
    return value;
  },
});

/** Per-call override of `minScore`, a RAG advisor's score threshold: of the retrievers' scores, or of the rerank score when the advisor reranks. */
export const RagMinScore = contextKey<number>('ragMinScore', {
  parse(value) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`expected a finite number, got ${describeValue(value)}`);
    return value;
  },
});
