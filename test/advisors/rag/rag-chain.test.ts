import { readUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor, metadataPassthroughAdvisor } from '../../../advisors/index.ts';
import {
  createCompressionQueryTransformer,
  questionAnswerAdvisor,
  rerankRagAdvisor,
  retrievalAugmentationAdvisor,
  type RetrievalTrace,
} from '../../../advisors/rag/index.ts';
import { createChatClient } from '../../../src/index.ts';
import { createChatMemory } from '../../../src/memory/index.ts';
import { createKeywordFilterReranker, parseDocumentContext } from '../../../src/retrieval/index.ts';
import { mockModel, textParts } from '../../helpers/mock-models.ts';
import { answeringModel, doc, keywordRetriever } from './rag-test-helpers.ts';

const landmarks = [
  doc('eiffel', 'The Eiffel Tower is a wrought-iron landmark in Paris.', { title: 'Eiffel Tower' }),
  doc('eiffel-height', 'The Eiffel Tower is 330 metres tall.', { title: 'Eiffel Tower height' }),
  doc('louvre', 'The Louvre is a museum in Paris.', { title: 'Louvre' }),
];

describe('RAG advisors in one chain with memory', () => {
  it('memory sits outside, stores the unaugmented turns, and the compression transformer reads the stored history', async () => {
    const memory = createChatMemory();
    const compressionPrompts: string[] = [];
    const compress = createCompressionQueryTransformer({
      model: answeringModel((prompt) => (compressionPrompts.push(prompt), 'How tall is the Eiffel Tower?')),
    });
    const modular = retrievalAugmentationAdvisor({
      name: 'modular',
      queryTransformers: [compress],
      retrievers: [keywordRetriever('landmarks', landmarks)],
      topK: 1,
    });
    const qa = questionAnswerAdvisor({
      name: 'qa',
      retriever: keywordRetriever('faq', [doc('faq-1', 'Tickets: it is open daily.')]),
      topK: 1,
    });
    const reranked = rerankRagAdvisor({
      name: 'reranked',
      retriever: keywordRetriever('wiki', landmarks),
      reranker: createKeywordFilterReranker({ required: ['tower'] }),
      topK: 1,
    });
    const model = mockModel([textParts(['It is a tower in Paris.']), textParts(['330 metres.'])]);
    const chat = createChatClient({
      model,
      advisors: [metadataPassthroughAdvisor(), modular, qa, reranked, messageMemoryAdvisor({ memory })],
    });
    expect(chat.chain.advisors.map((advisor) => advisor.name)).toEqual(['metadata', 'message-memory', 'modular', 'qa', 'reranked']);

    await chat.generate({ prompt: 'Tell me about the Eiffel Tower', context: { conversationId: 'c-1' } });
    const second = await chat.generate({ prompt: 'how tall is it?', context: { conversationId: 'c-1' } });

    // The compression transformer saw the first turn, loaded by the memory advisor.
    expect(compressionPrompts).toHaveLength(1);
    expect(compressionPrompts[0]).toContain('Tell me about the Eiffel Tower');
    expect(compressionPrompts[0]).toContain('It is a tower in Paris.');
    const trace = second.metadata.modular.trace as RetrievalTrace;
    // The user's text first, then what the compression transformer made of it, which is what was searched.
    expect(trace.queries).toEqual(['how tall is it?', 'How tall is the Eiffel Tower?']);
    expect(trace.hits.every((hit) => hit.query === 1)).toBe(true);
    // The rerank advisor found eiffel-height too: the turn's sources hold it once.
    expect(second.metadata.reranked.documents).toEqual([expect.objectContaining({ id: 'eiffel-height' })]);
    expect(second.sources.map((document) => document.id)).toEqual(['eiffel-height', 'faq-1']);

    // One <documents> block holding every source, numbered in source order; memory saw none of it.
    const lastPrompt = model.doGenerateCalls[1].prompt;
    const userMessage = lastPrompt.at(-1)!;
    const sentText = (userMessage.content as { text: string }[]).map((part) => part.text).join('');
    const injected = parseDocumentContext(sentText);
    expect(injected.documents.map((document) => [document.index, document.id])).toEqual([
      [1, 'eiffel-height'],
      [2, 'faq-1'],
    ]);
    expect(sentText.match(/<documents>/g)).toHaveLength(1);
    expect(injected.rest.match(/Question: how tall is it\?/g)).toHaveLength(1);
    const stored = await memory.read('c-1');
    expect(stored.map((entry) => entry.message)).toEqual([
      { role: 'user', content: 'Tell me about the Eiffel Tower' },
      expect.objectContaining({ role: 'assistant' }),
      { role: 'user', content: 'how tall is it?' },
      expect.objectContaining({ role: 'assistant' }),
    ]);
    expect(stored[2].metadata.retrieved?.map((reference) => reference.id)).toEqual(['eiffel-height', 'faq-1']);
    expect(second.metadata.metadata).toMatchObject({
      advisors: { modular: { noContext: false }, qa: { noContext: false }, reranked: { noContext: false } },
    });
  });

  it('streams to a Next.js-style UI message stream with the sources as source-document parts before the text', async () => {
    const chat = createChatClient({
      model: mockModel([textParts(['The tower ', 'is 330 metres tall [1].'])]),
      advisors: [
        retrievalAugmentationAdvisor({ retrievers: [keywordRetriever('landmarks', landmarks)], topK: 2 }),
        messageMemoryAdvisor({ memory: createChatMemory() }),
      ],
    });
    const result = chat.stream({ prompt: 'How tall is the Eiffel Tower?', context: { conversationId: 'c-2' } });
    let message: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: result.toUIMessageStream() as never })) message = update as UIMessage;
    const types = message!.parts.map((part) => part.type);
    const sources = message!.parts.filter((part) => part.type === 'source-document') as { sourceId: string; title: string }[];
    expect(sources.map((part) => part.sourceId)).toEqual(['eiffel-height', 'eiffel']);
    expect(sources[0].title).toBe('Eiffel Tower height');
    expect(types.indexOf('source-document')).toBeLessThan(types.indexOf('text'));
    expect(message!.parts.find((part) => part.type === 'text')).toMatchObject({ text: 'The tower is 330 metres tall [1].' });
    expect((await result.sources).map((document) => document.id)).toEqual(['eiffel-height', 'eiffel']);
  });
});
