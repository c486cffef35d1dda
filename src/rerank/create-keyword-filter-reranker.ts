import type { Document } from '../document/document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { RerankOptions, Reranker } from '../retrieval/reranker.ts';
import { validateRerankCall } from './validate-rerank-options.ts';

/** Options of `createKeywordFilterReranker`. */
export interface KeywordFilterRerankerOptions {
  /** Keywords a document must contain (all of them, or any with `requireAll: false`). */
  readonly required?: readonly string[];
  /** Keywords that drop a document when any of them occurs. */
  readonly excluded?: readonly string[];
  /** Whether every required keyword must occur. Default true. */
  readonly requireAll?: boolean;
  /** Match case exactly. Default false (case-insensitive, locale-independent). */
  readonly caseSensitive?: boolean;
  readonly name?: string;
}

/**
 * A reranker that only filters, after LazyLLM's `KeywordFilter`: documents
 * missing the required keywords or containing an excluded one are dropped,
 * the rest keep their order and scores. Keywords match as substrings, so they
 * work for CJK text without word boundaries. `topN` applies; `minScore` does
 * not, because this reranker assigns no scores.
 *
 * @example
 * const reranker = createKeywordFilterReranker({ required: ['qdrant'], excluded: ['deprecated'] });
 */
export function createKeywordFilterReranker(options: KeywordFilterRerankerOptions): Reranker {
  const component = 'reranker';
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({ component, argument: 'options', message: 'expected an options object' });
  }
  const { required = [], excluded = [], requireAll = true, caseSensitive = false, name = 'keyword-filter' } = options;
  const normalise = (text: string) => (caseSensitive ? text : text.toLowerCase());
  const requiredKeywords = validateKeywords(required, 'required').map(normalise);
  const excludedKeywords = validateKeywords(excluded, 'excluded').map(normalise);
  if (requiredKeywords.length === 0 && excludedKeywords.length === 0) {
    throw new AdvisorArgumentError({ component, argument: 'required', message: 'give at least one required or excluded keyword' });
  }
  if (typeof requireAll !== 'boolean' || typeof caseSensitive !== 'boolean') {
    throw new AdvisorArgumentError({ component, argument: 'requireAll', message: 'requireAll and caseSensitive must be booleans' });
  }
  if (typeof name !== 'string' || name.trim() === '') {
    throw new AdvisorArgumentError({ component, argument: 'name', message: 'expected a non-empty string' });
  }

  const keeps = (document: Document): boolean => {
    const text = normalise(document.text);
    if (excludedKeywords.some((keyword) => text.includes(keyword))) return false;
    if (requiredKeywords.length === 0) return true;
    return requireAll
      ? requiredKeywords.every((keyword) => text.includes(keyword))
      : requiredKeywords.some((keyword) => text.includes(keyword));
  };

  return {
    name,
    async rerank(query: string, documents: readonly Document[], rerankOptions: RerankOptions = {}): Promise<Document[]> {
      validateRerankCall(component, query, documents, rerankOptions);
      rerankOptions.abortSignal?.throwIfAborted();
      return documents.filter(keeps).slice(0, rerankOptions.topN);
    },
  };
}

function validateKeywords(keywords: unknown, argument: string): string[] {
  if (!Array.isArray(keywords) || keywords.some((keyword) => typeof keyword !== 'string' || keyword.trim() === '')) {
    throw new AdvisorArgumentError({ component: 'reranker', argument, message: 'expected an array of non-empty strings' });
  }
  return keywords as string[];
}
