import { readUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { metadataPassthroughAdvisor } from '../../advisors/index.ts';
import { createChatClient, type Advisor } from '../../src/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';

const rag: Advisor = {
  name: 'rag',
  before: (request) => {
    request.context.annotate('rag', { hits: 2 });
    return { ...request, sources: [{ id: 'bio#1', text: 'Born in 1867.', metadata: { title: 'Biography' }, score: 0.8 }] };
  },
};

describe('metadataPassthroughAdvisor', () => {
  it('copies chosen context entries, advisor results, timings and sources into the response metadata', async () => {
    const chat = createChatClient({
      model: mockModel([textParts(['1867.'])]),
      advisors: [metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }), rag],
    });
    const response = await chat.generate({ prompt: 'When?', context: { conversationId: 'c-9', secretFlag: true } });
    const metadata = response.metadata.metadata!;
    expect(metadata).toMatchObject({
      conversationId: 'c-9',
      advisors: { rag: { hits: 2 } },
      outcome: 'finished',
      finishReason: 'stop',
      sources: [{ id: 'bio#1', title: 'Biography', score: 0.8 }],
    });
    expect(metadata.latencyMs).toBeTypeOf('number');
    expect(metadata).not.toHaveProperty('secretFlag');
  });

  it('sends the metadata to the UI as message metadata, with the sources as source-document parts', async () => {
    const chat = createChatClient({
      model: mockModel([textParts(['1867.'])]),
      advisors: [metadataPassthroughAdvisor({ contextKeys: ['conversationId'], advisors: ['rag'] }), rag],
    });
    const result = chat.stream({ prompt: 'When?', context: { conversationId: 'c-9' } });
    let message: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: result.toUIMessageStream() as never })) message = update as UIMessage;
    expect(message?.metadata).toMatchObject({ conversationId: 'c-9', advisors: { rag: { hits: 2 } }, outcome: 'finished' });
    expect(message?.parts.find((part) => part.type === 'source-document')).toMatchObject({ sourceId: 'bio#1', title: 'Biography' });
  });

  it('validates its options', () => {
    expect(() => metadataPassthroughAdvisor({ contextKeys: [''] })).toThrow(/contextKeys/);
    expect(() => metadataPassthroughAdvisor({ advisors: 'some' as never })).toThrow(/advisors/);
  });
});
