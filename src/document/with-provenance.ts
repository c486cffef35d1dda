import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Document, DocumentProvenance } from './document.ts';

const TEXT_FIELDS = ['query', 'retriever'] as const;
const SCORE_FIELDS = ['score', 'rerankScore', 'fusedScore'] as const;

/**
 * Returns a copy of `document` with one more provenance entry (which query,
 * retriever, rank and score produced it). Existing entries are kept.
 *
 * @example
 * const hit = withProvenance(doc, { retriever: 'bm25', query: 'capital of France', rank: 1, score: 7.2 });
 */
export function withProvenance(document: Document, entry: DocumentProvenance): Document {
  return { ...document, provenance: [...(document.provenance ?? []), validateProvenance(entry)] };
}

/** Checks a provenance entry's fields and returns a copy holding only the known ones. */
export function validateProvenance(entry: DocumentProvenance): DocumentProvenance {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw invalid('provenance', `expected an object, got ${describeValue(entry)}`);
  }
  const copy: Record<string, string | number> = {};
  for (const field of TEXT_FIELDS) {
    const value = entry[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw invalid(`provenance.${field}`, `expected a string, got ${describeValue(value)}`);
    copy[field] = value;
  }
  if (entry.rank !== undefined) {
    if (!Number.isInteger(entry.rank) || entry.rank < 1) {
      throw invalid('provenance.rank', `expected a 1-based integer rank, got ${describeValue(entry.rank)}`);
    }
    copy.rank = entry.rank;
  }
  for (const field of SCORE_FIELDS) {
    const value = entry[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw invalid(`provenance.${field}`, `expected a finite number, got ${describeValue(value)}`);
    }
    copy[field] = value;
  }
  return copy;
}

function invalid(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: 'document', argument, message });
}
