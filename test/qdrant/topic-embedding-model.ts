import { MockEmbeddingModelV4 } from 'ai/test';
import { topicEmbedding } from '../../src/testing/topic-embedding.ts';

export { topicEmbedding };

export function createTopicEmbeddingModel(dimensions = 4) {
  return new MockEmbeddingModelV4({
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values }) => ({ embeddings: values.map((value) => topicEmbedding(value, dimensions)), warnings: [] }),
  });
}
