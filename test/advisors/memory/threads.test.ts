import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../../advisors/index.ts';
import { advisorMiddleware, createChatClient, createChatMemory } from '../../../src/index.ts';
import { mockModel, textParts } from '../../helpers/mock-models.ts';

describe('threads per user through the memory advisors', () => {
  it('chat client: a turn with the server’s UserId lists the conversation in that user’s threads, titled by the first question', async () => {
    const memory = createChatMemory();
    const chat = createChatClient({
      model: mockModel([textParts(['Nine to five.']), textParts(['Yes.'])]),
      advisors: [messageMemoryAdvisor({ memory })],
    });
    await chat.generate({ prompt: 'When is the office open?', context: { conversationId: 'c-1', userId: 'alice' } });
    await chat.generate({ prompt: 'Also on Fridays?', context: { conversationId: 'c-1', userId: 'alice' } });
    const { threads } = await memory.threads('alice');
    expect(threads).toMatchObject([{ conversationId: 'c-1', title: 'When is the office open?', messageCount: 4 }]);
    expect((await memory.threads('bob')).threads).toEqual([]);
  });

  it('chat client: a turn without a UserId records no thread', async () => {
    const memory = createChatMemory();
    const chat = createChatClient({ model: mockModel([textParts(['Hi.'])]), advisors: [messageMemoryAdvisor({ memory })] });
    await chat.generate({ prompt: 'Hello', context: { conversationId: 'anonymous' } });
    expect(await memory.messages('anonymous')).toHaveLength(2);
    expect((await memory.threads('anyone')).threads).toEqual([]);
  });

  it('middleware: the userId in providerOptions.advisors records the thread the same way', async () => {
    const memory = createChatMemory();
    const model = wrapLanguageModel({
      model: mockModel([textParts(['Hello!'])]),
      middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]),
    });
    await generateText({ model, prompt: 'Hi there', providerOptions: { advisors: { conversationId: 'mw-1', userId: 'carol' } } });
    expect((await memory.threads('carol')).threads).toMatchObject([{ conversationId: 'mw-1', title: 'Hi there', messageCount: 2 }]);
  });
});
