import { describeValue } from '../context/context-key.ts';
import type { Document } from '../document/document.ts';
import { mergeDocuments } from '../document/merge-documents.ts';
import { requireDocument } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { ensureHitProvenance } from './hit-provenance.ts';

/**
 * Which copy of a document a fusion returns when several lists returned it:
 * `merge` (default) keeps the text of the copy read first and merges the
 * metadata of all copies; `first` keeps the copy of the earliest list (the
 * list order is a priority: your primary source first); `best` keeps the copy
 * that contributed most to the fused score. Provenance of every copy is kept
 * in all three.
 */
export type DuplicatePolicy = 'merge' | 'first' | 'best';

const DUPLICATE_POLICIES: readonly DuplicatePolicy[] = ['merge', 'first', 'best'];

interface Copy {
  readonly document: Document;
  readonly listIndex: number;
  readonly contribution: number;
}

/**
 * The shared core of the fusions: reads the lists rank by rank, adds up each
 * document's contributions by id (only its first, best rank in a list
 * counts), picks the copy to return by `duplicates`, and ranks by fused score,
 * ties kept in reading order. Each returned document carries the fused score,
 * and every provenance entry not already fused records it as `fusedScore`.
 */
export function fuseRankedLists(
  rankedLists: readonly (readonly Document[])[],
  {
    contribution,
    duplicates,
    topK,
  }: {
    contribution: (listIndex: number, position: number, document: Document) => number;
    duplicates: DuplicatePolicy;
    topK: number | undefined;
  },
): Document[] {
  const fused = new Map<string, { copies: Copy[]; score: number; order: number }>();
  const seenPerList = rankedLists.map(() => new Set<string>());
  const longest = Math.max(0, ...rankedLists.map((list) => list.length));

  for (let position = 0; position < longest; position += 1) {
    rankedLists.forEach((list, listIndex) => {
      if (position >= list.length) return;
      const hit = list[position];
      requireDocument(hit, () => `rankedLists[${listIndex}][${position}]`);
      const document = ensureHitProvenance(hit, position + 1);
      const firstInList = !seenPerList[listIndex].has(document.id);
      seenPerList[listIndex].add(document.id);
      const added = firstInList ? contribution(listIndex, position, document) : 0;
      const existing = fused.get(document.id);
      const copy = { document, listIndex, contribution: added };
      if (existing === undefined) fused.set(document.id, { copies: [copy], score: added, order: fused.size });
      else {
        existing.copies.push(copy);
        existing.score += added;
      }
    });
  }

  const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.slice(0, topK).map(({ copies, score }) => {
    const document = pickCopy(copies, duplicates);
    return {
      ...document,
      score,
      provenance: document.provenance?.map((entry) => (entry.fusedScore === undefined ? { ...entry, fusedScore: score } : entry)),
    };
  });
}

function pickCopy(copies: readonly Copy[], duplicates: DuplicatePolicy): Document {
  if (duplicates === 'merge' || copies.length === 1) return copies.map((copy) => copy.document).reduce(mergeDocuments);
  const chosen = copies.reduce((best, copy) =>
    duplicates === 'first' ? (copy.listIndex < best.listIndex ? copy : best) : copy.contribution > best.contribution ? copy : best,
  );
  const provenance = copies.flatMap((copy) => copy.document.provenance ?? []);
  return { ...chosen.document, provenance };
}

/** Checks the options every fusion shares, for `listCount` lists, and fills in defaults. */
export function validateSharedFusionOptions(
  component: string,
  listCount: number,
  options: { readonly weights?: readonly number[]; readonly topK?: number; readonly duplicates?: DuplicatePolicy },
): { weights: readonly number[]; topK: number | undefined; duplicates: DuplicatePolicy } {
  if (options === null || typeof options !== 'object') throw invalid(component, 'options', 'expected an options object');
  const { weights, topK, duplicates = 'merge' } = options;
  if (weights !== undefined) {
    if (!Array.isArray(weights) || weights.length !== listCount) {
      throw invalid(component, 'weights', `expected one weight per ranked list (${listCount})`);
    }
    weights.forEach((weight, index) => {
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
        throw invalid(component, `weights[${index}]`, `expected a finite number >= 0, got ${describeValue(weight)}`);
      }
    });
  }
  if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) {
    throw invalid(component, 'topK', `expected a positive integer, got ${describeValue(topK)}`);
  }
  if (!DUPLICATE_POLICIES.includes(duplicates)) {
    throw invalid(component, 'duplicates', `expected one of ${DUPLICATE_POLICIES.join(', ')}, got ${describeValue(duplicates)}`);
  }
  return { weights: weights ?? Array.from({ length: listCount }, () => 1), topK, duplicates };
}

/** Throws unless `rankedLists` is an array of arrays. */
export function checkRankedLists(component: string, rankedLists: unknown): void {
  if (!Array.isArray(rankedLists) || !rankedLists.every((list) => Array.isArray(list))) {
    throw invalid(component, 'rankedLists', 'expected an array of ranked document arrays');
  }
}

function invalid(component: string, argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component, argument, message });
}
