import type { Document } from '../../../src/index.ts';

/**
 * `target` standing in for several retrieved `hits` (a parent for its
 * children, one window for overlapping ones): it takes the best hit score
 * and all hits' provenance, and lists the hit ids in `metadata.mergedIds`.
 */
export function combineHits(target: Document, hits: readonly Document[], metadata: Readonly<Record<string, unknown>> = {}): Document {
  const scores = hits.map((hit) => hit.score).filter((score): score is number => typeof score === 'number' && !Number.isNaN(score));
  const provenance = hits.flatMap((hit) => hit.provenance ?? []);
  const mergedIds = [
    ...new Set(hits.flatMap((hit) => (Array.isArray(hit.metadata.mergedIds) ? (hit.metadata.mergedIds as string[]) : [hit.id]))),
  ];
  return {
    ...target,
    metadata: { ...target.metadata, ...metadata, mergedIds },
    ...(scores.length > 0 && { score: Math.max(...scores) }),
    ...(provenance.length > 0 && { provenance }),
  };
}
