import type { RerankingModelV4 } from '@ai-sdk/provider';

/** Words of a question that say nothing about its topic: interrogatives, pronouns, auxiliaries. */
export const QUESTION_WORDS = [
  'who',
  'whom',
  'whose',
  'what',
  'which',
  'when',
  'where',
  'why',
  'how',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'should',
  'has',
  'have',
  'had',
  'i',
  'me',
  'my',
  'you',
  'your',
  'he',
  'him',
  'his',
  'she',
  'her',
  'hers',
  'we',
  'our',
  'us',
  'they',
  'them',
  'tell',
  'about',
  'please',
  'happen',
  'happens',
];

/**
 * A local stand-in for a reranking model such as Cohere's: it needs no network
 * and no model weights. A passage's relevance is the share of the question's
 * topic words (after `analyze`, which should drop `QUESTION_WORDS`) that it
 * contains, from 0 to 1. A real cross-encoder understands paraphrases; this one
 * only counts words, which is enough to drop passages that share nothing but a
 * pronoun with the question.
 *
 * It takes the analyzer as an argument so that it depends on no particular
 * build of the library (the Next.js example uses it through the package).
 */
export function createTermCoverageRerankingModel({ analyze }: { analyze: (text: string) => string[] }): RerankingModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'local',
    modelId: 'term-coverage',
    async doRerank({ documents, query, topN, abortSignal }) {
      abortSignal?.throwIfAborted();
      const topicWords = new Set(analyze(query));
      const texts = documents.type === 'text' ? documents.values : documents.values.map((value) => JSON.stringify(value));
      const ranking = texts
        .map((text, index) => {
          const words = new Set(analyze(text));
          const covered = [...topicWords].filter((word) => words.has(word)).length;
          return { index, relevanceScore: topicWords.size === 0 ? 0 : covered / topicWords.size };
        })
        .sort((a, b) => b.relevanceScore - a.relevanceScore || a.index - b.index);
      return { ranking: topN === undefined ? ranking : ranking.slice(0, topN) };
    },
  };
}
