import { createEnglishAnalyzer, createRerankingModelReranker, ENGLISH_STOP_WORDS } from '../src/retrieval/index.ts';
import { type Reranker } from '../src/index.ts';
import { createTermCoverageRerankingModel, QUESTION_WORDS } from './term-coverage-reranking-model.ts';

/** The local reranker of the examples: term coverage over stemmed topic words, through the AI SDK reranking-model adapter. */
export function createLocalReranker(): Reranker {
  const analyze = createEnglishAnalyzer({ stopWords: [...ENGLISH_STOP_WORDS, ...QUESTION_WORDS] });
  return createRerankingModelReranker({ name: 'term-coverage', model: createTermCoverageRerankingModel({ analyze }) });
}
