/**
 * A reranker on Cohere (`cohere-ai`, an optional peer).
 *
 * @module ai-advisors/cohere
 */
import { importPeer } from '../util/import-peer.ts';

// The reranker imports `cohere-ai` statically; checking it first turns a missing peer into the install line.
await importPeer({ packageName: 'cohere-ai', entryPoint: 'ai-advisors/cohere', load: () => import('cohere-ai') });
const reranker = await import('./create-cohere-reranker.ts');

/** A reranker on Cohere's rerank API through `cohere-ai` (see `CohereRerankerOptions`). */
export const createCohereReranker: typeof reranker.createCohereReranker = reranker.createCohereReranker;
export type { CohereRerankerOptions } from './create-cohere-reranker.ts';
export { cohereFetcher, type CohereFetchFunction } from './cohere-fetcher.ts';
