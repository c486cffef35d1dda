import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { createHash } from 'node:crypto';
import { englishAnalyzer } from '../src/retrieval/index.ts';

/**
 * An offline stand-in for an embedding model, for examples that need vectors
 * without a network: each stemmed word is hashed to one of `dimensions`
 * coordinates (with a hashed sign), and the vector is normalised. Texts that
 * share words get similar vectors; unlike a real embedding model it knows
 * nothing of synonyms.
 */
export function createHashingEmbeddingModel({ dimensions = 256 }: { dimensions?: number } = {}): EmbeddingModelV4 {
  const embed = (text: string): number[] => {
    const vector = new Array<number>(dimensions).fill(0);
    for (const word of englishAnalyzer(text)) {
      const digest = createHash('sha256').update(word).digest();
      vector[digest.readUInt32BE(0) % dimensions] += digest[4] & 1 ? 1 : -1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  return {
    specificationVersion: 'v4',
    provider: 'local',
    modelId: `hashing-${dimensions}`,
    maxEmbeddingsPerCall: 256,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal }) {
      abortSignal?.throwIfAborted();
      return { embeddings: values.map(embed), warnings: [] };
    },
  };
}
