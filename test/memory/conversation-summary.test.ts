import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, type ChatMemoryStore, createChatClient } from '../../src/index.ts';
import { createChatMemory, createInMemoryChatMemoryStore, createTokenWindow } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { mockModel, promptText, textParts, usage } from '../helpers/mock-models.ts';
import { describeWithServices, type ServiceVariable } from '../helpers/services.ts';

/** A summary model that answers "summary N: <the user questions it read>", and can be held or made to fail. */
function summaryModel() {
  const calls: string[] = [];
  let held: PromiseWithResolvers<void> | undefined;
  let failures = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }: LanguageModelV4CallOptions) => {
      await held?.promise;
      const text = promptText({ prompt });
      calls.push(text);
      if (failures > 0) {
        failures--;
        throw new Error('summary model unavailable');
      }
      const questions = [...text.matchAll(/user: (Question \d+)/g)].map((match) => match[1]);
      const before = /summary \d+: ([^<]*)/.exec(text)?.[1]?.trim();
      return {
        content: [{ type: 'text', text: `summary ${calls.length}: ${[before, ...questions].filter(Boolean).join(', ')}` }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
  return {
    model,
    calls,
    hold: () => (held = Promise.withResolvers<void>()),
    release: () => held?.resolve(),
    failNext: (count: number) => (failures = count),
  };
}

/** A turn of about 100 tokens. */
const turn = (index: number): ModelMessage[] => [
  { role: 'user', content: `Question ${index}: ${'tell me more about the weather in the mountains '.repeat(8)}` },
  { role: 'assistant', content: `Answer ${index}.` },
];

/** The summary work chat memory schedules, to await it as a platform's `waitUntil` would. */
function backgroundWork() {
  const pending: Promise<void>[] = [];
  return {
    schedule: (work: Promise<void>) => void pending.push(work),
    async settled() {
      while (pending.length > 0) await pending.shift();
    },
  };
}

const stores: [string, ServiceVariable[], () => ChatMemoryStore & { close?(): Promise<void> }][] = [
  ['in-memory', [], () => createInMemoryChatMemoryStore()],
  ['redis', ['REDIS_URL'], () => createRedisChatMemoryStore({ keyPrefix: `ai-advisors-test:${crypto.randomUUID()}` })],
  ['postgres', ['DATABASE_URL'], () => createPostgresChatMemoryStore()],
];

for (const [name, variables, createStore] of stores)
  describeWithServices(`a running summary on the ${name} store`, variables, () => {
    const store = createStore();
    afterAll(() => store.close?.());

    it('folds the oldest whole turns once past the budget, and the model reads the summary ahead of the newest turns', async () => {
      const summarizer = summaryModel();
      const work = backgroundWork();
      const memory = createChatMemory({
        store,
        window: false,
        summary: { model: summarizer.model, schedule: work.schedule, triggerTokens: 600, keepTokens: 250 },
      });
      const conversationId = `summary-${name}-${crypto.randomUUID()}`;
      for (let index = 1; index <= 8; index++) {
        await memory.appendTurn(conversationId, turn(index));
        await work.settled();
      }
      const [system, ...rest] = await memory.read(conversationId);
      expect(system!.message.role).toBe('system');
      expect(system!.message.content).toMatch(/<conversation-summary>[\s\S]*Question 1[\s\S]*<\/conversation-summary>/);
      // Whole turns after the summary, never a part of one; the newest turns are never folded.
      expect(rest.map((entry) => entry.message.role)).toEqual(
        rest.flatMap((_, index) => (index % 2 === 0 ? ['user'] : ['assistant'])).slice(0, rest.length),
      );
      expect(rest.at(-2)?.message.content).toMatch(/^Question 8/);
      const folded = (system!.message.content as string).match(/Question \d+/g)!;
      const kept = rest
        .filter((entry) => entry.message.role === 'user')
        .map((entry) => /Question \d+/.exec(entry.message.content as string)![0]);
      expect(new Set([...folded, ...kept]).size).toBe(8);
      expect(folded.filter((question) => kept.includes(question))).toEqual([]);
    });
  });

describe('a running summary', () => {
  it('never holds up a turn: the answer is stored and read while the summary model has not answered', async () => {
    const summarizer = summaryModel();
    const work = backgroundWork();
    const memory = createChatMemory({
      window: false,
      summary: { model: summarizer.model, schedule: work.schedule, triggerTokens: 250, keepTokens: 100 },
    });
    const chat = createChatClient({ model: mockModel([textParts(['Answer.'])]), advisors: [messageMemoryAdvisor({ memory })] });
    summarizer.hold();
    for (let index = 1; index <= 3; index++) await memory.appendTurn('held', turn(index));
    const started = performance.now();
    await chat.generate({ prompt: 'Question 4', context: { conversationId: 'held' } });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await memory.read('held')).some((entry) => entry.message.role === 'system')).toBe(false);
    summarizer.release();
    await work.settled();
    expect((await memory.read('held'))[0]?.message.content).toMatch(/<conversation-summary>/);
  });

  it('survives a failed summary call: onError hears of it, the window goes on, and a later turn summarises', async () => {
    const summarizer = summaryModel();
    const work = backgroundWork();
    const errors: unknown[] = [];
    const memory = createChatMemory({
      window: false,
      summary: {
        model: summarizer.model,
        schedule: work.schedule,
        triggerTokens: 300,
        keepTokens: 150,
        onError: (error) => errors.push(error),
      },
    });
    summarizer.failNext(1);
    for (let index = 1; index <= 4; index++) await memory.appendTurn('failing', turn(index));
    await work.settled();
    expect(errors.length).toBeGreaterThan(0);
    await memory.appendTurn('failing', turn(5));
    await work.settled();
    expect((await memory.read('failing'))[0]?.message.content).toMatch(/<conversation-summary>/);
  });

  it('never separates a tool call from its result when folding', async () => {
    const summarizer = summaryModel();
    const work = backgroundWork();
    const memory = createChatMemory({
      window: false,
      summary: { model: summarizer.model, schedule: work.schedule, triggerTokens: 300, keepTokens: 100 },
    });
    const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'lookup', input: { q: 'x'.repeat(300) } };
    const result = {
      type: 'tool-result' as const,
      toolCallId: 'c1',
      toolName: 'lookup',
      output: { type: 'text' as const, value: 'y'.repeat(300) },
    };
    await memory.appendTurn('tools', [
      { role: 'user', content: 'Question 1: look it up' },
      { role: 'assistant', content: [call] },
      { role: 'tool', content: [result] },
      { role: 'assistant', content: 'Found it.' },
    ]);
    await memory.appendTurn('tools', turn(2));
    await memory.appendTurn('tools', turn(3));
    await work.settled();
    const entries = await memory.read('tools');
    const calls = entries.flatMap((entry) =>
      Array.isArray(entry.message.content) ? entry.message.content.filter((part) => part.type === 'tool-call') : [],
    );
    const results = entries.flatMap((entry) =>
      Array.isArray(entry.message.content) ? entry.message.content.filter((part) => part.type === 'tool-result') : [],
    );
    expect(calls.length).toBe(results.length);
    expect(summarizer.calls.join('\n')).toContain('[tool call lookup');
    expect(summarizer.calls.join('\n')).toContain('[tool result lookup');
  });

  it('two processes summarising one conversation at once store one summary', async () => {
    const store = createInMemoryChatMemoryStore();
    const [first, second] = [summaryModel(), summaryModel()];
    const work = backgroundWork();
    const options = { triggerTokens: 300, keepTokens: 150, schedule: work.schedule };
    const memoryA = createChatMemory({ store, window: false, summary: { model: first.model, ...options } });
    const memoryB = createChatMemory({ store, window: false, summary: { model: second.model, ...options } });
    for (let index = 1; index <= 3; index++) await memoryA.appendTurn('shared', turn(index));
    first.hold();
    second.hold();
    await memoryA.appendTurn('shared', turn(4));
    await memoryB.appendTurn('shared', turn(5));
    first.release();
    second.release();
    await work.settled();
    const read = await memoryA.read('shared');
    expect(read.filter((entry) => entry.message.role === 'system')).toHaveLength(1);
    const users = read
      .filter((entry) => entry.message.role === 'user')
      .map((entry) => /Question \d+/.exec(entry.message.content as string)![0]);
    const folded = (read[0]!.message.content as string).match(/Question \d+/g) ?? [];
    expect(new Set([...folded, ...users])).toEqual(new Set(['Question 1', 'Question 2', 'Question 3', 'Question 4', 'Question 5']));
  });

  it('a regeneration of a folded turn takes the summary back to before it; of an unsummarised turn leaves it', async () => {
    const summarizer = summaryModel();
    const work = backgroundWork();
    const memory = createChatMemory({
      window: false,
      summary: { model: summarizer.model, schedule: work.schedule, triggerTokens: 300, keepTokens: 150 },
    });
    for (let index = 1; index <= 5; index++) {
      await memory.appendTurn('regen', turn(index), { metadata: { turnId: `t${index}` } });
      await work.settled();
    }
    const summarised = await memory.read('regen');
    expect(summarised[0]!.message.content).toMatch(/Question 1/);
    const newest = summarised.at(-1)!.metadata.turnId;
    await memory.appendTurn(
      'regen',
      [
        { role: 'user', content: 'Question 5 again' },
        { role: 'assistant', content: 'Again.' },
      ],
      {
        metadata: { turnId: 'r5', regenerates: newest },
      },
    );
    expect((await memory.read('regen'))[0]!.message.content).toBe(summarised[0]!.message.content);

    await memory.appendTurn(
      'regen',
      [
        { role: 'user', content: 'Question 1 edited' },
        { role: 'assistant', content: 'Edited.' },
      ],
      {
        metadata: { turnId: 'e1', regenerates: 't1' },
      },
    );
    const edited = await memory.read('regen');
    expect(edited.map((entry) => entry.message.content)).toEqual(['Question 1 edited', 'Edited.']);
  });

  it('with a token window, the model reads the summary and fewer tokens per turn than the whole history', async () => {
    const summarizer = summaryModel();
    const work = backgroundWork();
    const memory = createChatMemory({
      window: createTokenWindow({ maxTokens: 100_000 }),
      summary: { model: summarizer.model, schedule: work.schedule, triggerTokens: 800, keepTokens: 300 },
    });
    const model = mockModel([textParts(['Answer.'])]);
    const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory })] });
    for (let index = 1; index <= 20; index++) {
      await chat.generate({ prompt: turn(index)[0]!.content as string, context: { conversationId: 'window' } });
      await work.settled();
    }
    const last = promptText(model.doGenerateCalls.at(-1)!);
    expect(last).toContain('<conversation-summary>');
    expect(last.length).toBeLessThan(20 * 400 * 0.5);
  });

  it('through the middleware: streamText turns are summarised the same way', async () => {
    const summarizer = summaryModel();
    const work = backgroundWork();
    const memory = createChatMemory({
      window: false,
      summary: { model: summarizer.model, schedule: work.schedule, triggerTokens: 250, keepTokens: 100 },
    });
    const answering = mockModel([textParts(['Answer.'])]);
    const model = wrapLanguageModel({ model: answering, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
    for (let index = 1; index <= 5; index++) {
      await streamText({
        model,
        prompt: turn(index)[0]!.content as string,
        providerOptions: { advisors: { conversationId: 'middleware' } },
      }).consumeStream();
      await work.settled();
    }
    expect(promptText(answering.doStreamCalls.at(-1)!)).toContain('<conversation-summary>');
    expect((await memory.read('middleware'))[0]!.message.content).toMatch(/summary \d+: Question 1/);
  });

  it('refuses bad options with a clear error', () => {
    expect(() => createChatMemory({ summary: {} as never })).toThrow(/summary.model: a model is required/);
    expect(() => createChatMemory({ summary: { model: mockModel([]), triggerTokens: 100, keepTokens: 100 } })).toThrow(
      /summary.keepTokens: expected less than triggerTokens/,
    );
  });
});
