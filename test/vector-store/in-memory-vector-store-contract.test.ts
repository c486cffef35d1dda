import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { describeVectorStoreContract } from '../../src/testing/index.ts';

describeVectorStoreContract('in-memory', ({ embeddingModel, dimensions }) => createInMemoryVectorStore({ embeddingModel, dimensions }));
describeVectorStoreContract('in-memory, int8 quantized', ({ embeddingModel, dimensions }) =>
  createInMemoryVectorStore({ embeddingModel, dimensions, quantization: 'int8' }),
);
