import { isStepCount, jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { vectorStoreMemoryAdvisor } from '../../../advisors/index.ts';
import { type Advisor, createChatClient, type Document, type VectorSearchRequest, type VectorStore } from '../../../src/index.ts';
import { mockModel, textParts, toolCallParts } from '../../helpers/mock-models.ts';

/** A lexical stand-in for a vector store: scores by shared words, applies `==` filters. */
function wordOverlapStore({ ignoreFilters = false } = {}): VectorStore & { documents: Document[] } {
  const documents: Document[] = [];
  const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
  return {
    name: 'word-overlap',
    documents,
    async add(added) {
      documents.push(...added);
    },
    async delete() {},
    async search({ query = '', topK = 4, filter }: VectorSearchRequest) {
      const queryWords = words(query);
      return documents
        .filter((document) => ignoreFilters || filter?.type !== 'compare' || document.metadata[filter.key] === filter.value)
        .map((document) => ({
          ...document,
          score: [...words(document.text)].filter((word) => queryWords.has(word)).length / queryWords.size,
        }))
        .filter((document) => document.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, topK);
    },
  };
}

const rag: Advisor = {
  name: 'rag',
  before: (request) => ({ ...request, sources: [{ id: 'kb-1', text: 'Ferrets sleep 14 hours.', metadata: {}, score: 0.7 }] }),
};

describe('vectorStoreMemoryAdvisor', () => {
  it('indexes whole turns and recalls only the same conversation into the instructions', async () => {
    const vectorStore = wordOverlapStore();
    const model = mockModel([textParts(['Noted.'])]);
    const chat = createChatClient({ model, advisors: [rag, vectorStoreMemoryAdvisor({ vectorStore, topK: 2 })] });
    await chat.generate({ prompt: 'My ferret is called Biscuit', context: { conversationId: 'a' } });
    await chat.generate({ prompt: 'My ferret is called Pudding', context: { conversationId: 'b' } });
    const response = await chat.generate({ prompt: 'What is my ferret called?', context: { conversationId: 'a' } });

    const system = String(model.doGenerateCalls[2].prompt[0].content);
    expect(system).toContain('Biscuit');
    expect(system).not.toContain('Pudding');
    expect(response.metadata['vector-store-memory'].recalled).toEqual([{ id: vectorStore.documents[0].id, score: expect.any(Number) }]);

    const stored = vectorStore.documents[0];
    expect(stored.text).toBe('user: My ferret is called Biscuit\nassistant: Noted.');
    expect(stored.metadata).toMatchObject({ conversationId: 'a', retrieved: [{ id: 'kb-1', score: 0.7 }] });
  });

  it('never leaks another conversation even from a store that ignores filters', async () => {
    const vectorStore = wordOverlapStore({ ignoreFilters: true });
    const model = mockModel([textParts(['Noted.'])]);
    const chat = createChatClient({ model, advisors: [vectorStoreMemoryAdvisor({ vectorStore })] });
    await chat.generate({ prompt: 'My secret code is 4242', context: { conversationId: 'other' } });
    await chat.generate({ prompt: 'What is my secret code?', context: { conversationId: 'mine' } });
    expect(JSON.stringify(model.doGenerateCalls[1].prompt)).not.toContain('4242');
  });

  it("recalls across a user's conversations in user scope, and needs the user id", async () => {
    const vectorStore = wordOverlapStore();
    const model = mockModel([textParts(['Noted.'])]);
    const chat = createChatClient({ model, advisors: [vectorStoreMemoryAdvisor({ vectorStore, scope: 'user' })] });
    await chat.generate({ prompt: 'I live in Lisbon', context: { conversationId: 'c1', userId: 'u1' } });
    await chat.generate({ prompt: 'I live in Oslo', context: { conversationId: 'c2', userId: 'u2' } });
    await chat.generate({ prompt: 'Where do I live?', context: { conversationId: 'c3', userId: 'u1' } });
    const system = String(model.doGenerateCalls[2].prompt[0].content);
    expect(system).toContain('Lisbon');
    expect(system).not.toContain('Oslo');
    await expect(chat.generate({ prompt: 'hi', context: { conversationId: 'c4' } })).rejects.toThrow(/userId/);
  });

  it('stores the tool calls and results of the turn in the indexed text', async () => {
    const vectorStore = wordOverlapStore();
    const weather = tool({
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }) => ({ city, forecast: 'sunny' }),
    });
    const model = mockModel([toolCallParts('weather', { city: 'Paris' }), textParts(['Sunny.'])]);
    const chat = createChatClient({
      model,
      tools: { weather },
      stopWhen: isStepCount(3),
      advisors: [vectorStoreMemoryAdvisor({ vectorStore })],
    });
    await chat.generate({ prompt: 'Weather in Paris?', context: { conversationId: 'c' } });
    expect(vectorStore.documents[0].text).toBe(
      'user: Weather in Paris?\nassistant: [tool call weather {"city":"Paris"}]\ntool: [tool result weather: {"city":"Paris","forecast":"sunny"}]\nassistant: Sunny.',
    );
  });

  it('fails the turn with a memory-store error when the vector store cannot store it', async () => {
    const vectorStore = { ...wordOverlapStore(), add: async () => Promise.reject(new Error('unavailable')) };
    const chat = createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [vectorStoreMemoryAdvisor({ vectorStore })] });
    await expect(chat.generate({ prompt: 'hi', context: { conversationId: 'c' } })).rejects.toMatchObject({ component: 'memory-store' });
  });

  it('validates its options', () => {
    const vectorStore = wordOverlapStore();
    expect(() => vectorStoreMemoryAdvisor({ vectorStore: {} as never })).toThrow(/vectorStore/);
    expect(() => vectorStoreMemoryAdvisor({ vectorStore, topK: 0 })).toThrow(/topK/);
    expect(() => vectorStoreMemoryAdvisor({ vectorStore, scope: 'tenant' as never })).toThrow(/scope/);
  });
});
