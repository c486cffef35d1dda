import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createQdrantVectorStore } from '../../src/qdrant/create-qdrant-vector-store.ts';
import { startQdrantFixture, type QdrantFixture } from '../fixtures/qdrant-fixture-server.ts';
import { describeVectorStoreContract } from '../../src/testing/index.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { describeTenantIsolation } from '../helpers/tenant-isolation.ts';
import { createTopicEmbeddingModel } from './topic-embedding-model.ts';

let fixture: QdrantFixture;
let counter = 0;

beforeAll(async () => {
  fixture = await startQdrantFixture();
});
afterAll(() => fixture.close());
afterEach(() => {
  // Every request the store sent must be valid by Qdrant's OpenAPI specification.
  expect(fixture.violations).toEqual([]);
});

describeVectorStoreContract('Qdrant (fixture server)', ({ embeddingModel, dimensions }) =>
  createQdrantVectorStore({ url: fixture.url, collection: `contract_${++counter}`, embeddingModel, dimensions }),
);

describeTenantIsolation('Qdrant (fixture server)', () => {
  const collection = `tenants_${++counter}`;
  const create = (requiredFilter?: FilterExpression) =>
    createQdrantVectorStore({ url: fixture.url, collection, dimensions: 4, embeddingModel: createTopicEmbeddingModel(), requiredFilter });
  return { forTenant: create, unscoped: create() };
});
