import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../bench/vector/random-vectors.ts';
import {
  createChatMemory,
  createInMemoryChatMemoryStore,
  createMessageWindow,
  createTokenWindow,
  type ChatMemory,
  type ChatMemoryStore,
  type ChatMemoryWindow,
  type Tokenizer,
} from '../../src/memory/index.ts';

const words: Tokenizer = { name: 'words', countTokens: (text) => text.split(/\s+/).filter(Boolean).length };
const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const answer = (text: string): ModelMessage => ({ role: 'assistant', content: text });
const call = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'look', input: {} }],
});
const result = (id: string, text: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'look', output: { type: 'text', value: text } }],
});

/** The same window with no budget: it reads and decodes every message a count-based read returns. */
function withoutBudget(window: ChatMemoryWindow): ChatMemoryWindow {
  return { ...window, measure: { ...window.measure!, budget: undefined } };
}

/** The store, calling `onDecode` whenever a message it read is first used. */
function countingDecodes(store: ChatMemoryStore, onDecode: () => void): ChatMemoryStore {
  return {
    ...store,
    async read(conversationId, options) {
      const history = await store.read(conversationId, options);
      const entries = history.entries.map((entry) => {
        let decoded = false;
        return {
          metadata: entry.metadata,
          get message() {
            if (!decoded) onDecode();
            decoded = true;
            return entry.message;
          },
        };
      });
      return { ...history, entries };
    },
  };
}

/** The texts `JSON.parse` was given that are longer than `length`. */
function watchLongParses(length: number): string[] {
  const parsed: string[] = [];
  const parse = JSON.parse;
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    if (text.length > length) parsed.push(text);
    return parse(text, reviver);
  });
  return parsed;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a window's budget", () => {
  it('stops a read at the newest message that takes it past the budget: that message is never decoded', async () => {
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 1_000, tokenizer: words }) });
    await memory.appendTurn('c', [user('word '.repeat(200_000)), answer('Noted.')]);
    for (let turn = 0; turn < 40; turn++) await memory.appendTurn('c', [user(`Question ${turn}?`), answer(`Answer ${turn}.`)]);

    const parsed = watchLongParses(100_000);
    const messages = await memory.messages('c');
    expect(parsed).toEqual([]);
    expect(messages).toHaveLength(80);
    expect(messages.at(-1)).toEqual(answer('Answer 39.'));
  });

  it('decodes that message once the budget can take it', async () => {
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 300_000, tokenizer: words }) });
    await memory.appendTurn('c', [user('word '.repeat(200_000)), answer('Noted.')]);
    for (let turn = 0; turn < 40; turn++) await memory.appendTurn('c', [user(`Question ${turn}?`), answer(`Answer ${turn}.`)]);

    const parsed = watchLongParses(100_000);
    expect(await memory.messages('c')).toHaveLength(82);
    expect(parsed).toHaveLength(1);
  });

  it('keeps the newest messages of a turn whose oldest message is past the budget', async () => {
    const memory = createChatMemory({ window: createTokenWindow({ maxTokens: 100, tokenizer: words }) });
    await memory.appendTurn('c', [user('Q1'), answer('A1')]);
    await memory.appendTurn('c', [user('word '.repeat(200_000)), call('x'), result('x', 'found'), answer('Done.')]);

    const parsed = watchLongParses(100_000);
    expect(await memory.messages('c')).toEqual([call('x'), result('x', 'found'), answer('Done.')]);
    expect(parsed).toEqual([]);
  });

  it.each([
    ['createTokenWindow', () => createTokenWindow({ maxTokens: 60, tokenizer: words })],
    ['createTokenWindow, wide', () => createTokenWindow({ maxTokens: 400, tokenizer: words })],
    ['createMessageWindow', () => createMessageWindow({ maxMessages: 40, maxSize: 300 })],
  ])('selects exactly what %s selects without it, over random histories, decoding fewer messages', async (_, createWindow) => {
    let decodedWith = 0;
    let decodedWithout = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const store = createInMemoryChatMemoryStore();
      const window = createWindow();
      await appendRandomHistory(createChatMemory({ store, window }), seed);
      const budgeted = createChatMemory({ store: countingDecodes(store, () => decodedWith++), window });
      const unbudgeted = createChatMemory({ store: countingDecodes(store, () => decodedWithout++), window: withoutBudget(window) });
      for (const keepOpenToolCalls of [false, true]) {
        expect(await budgeted.read('c', { keepOpenToolCalls }), `seed ${seed}`).toEqual(await unbudgeted.read('c', { keepOpenToolCalls }));
      }
    }
    expect(decodedWith).toBeLessThan(decodedWithout * 0.8);
  });

  it('reads past entries measured under another key, counting them as nothing', async () => {
    const store = createInMemoryChatMemoryStore();
    await createChatMemory({ store, window: false }).appendTurn('c', [user('word '.repeat(1_000)), answer('unmeasured')]);
    const memory = createChatMemory({ store, window: createTokenWindow({ maxTokens: 50, tokenizer: words }) });
    await memory.appendTurn('c', [user('Q'), answer('A')]);
    expect(await memory.messages('c')).toEqual([user('Q'), answer('A')]);
    expect(await createChatMemory({ store, window: createTokenWindow({ maxTokens: 5_000, tokenizer: words }) }).messages('c')).toHaveLength(
      4,
    );
  });
});

/** Turns of ordinary, long, server-tool, client-tool and regenerated shapes, from a seeded generator. */
async function appendRandomHistory(memory: ChatMemory, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const text = () => 'word '.repeat(random() < 0.15 ? 20 + Math.floor(random() * 120) : 1 + Math.floor(random() * 6));
  const turnIds: string[] = [];
  for (let turn = 0; turn < 30; turn++) {
    let turnId = `t${turn}`;
    const shape = random();
    let messages: ModelMessage[];
    if (shape < 0.4) messages = [user(text()), answer(text())];
    else if (shape < 0.6) messages = [user(text()), call(`s${turn}`), result(`s${turn}`, text()), answer(text())];
    else if (shape < 0.8) {
      // A client-side tool: the call ends one turn, its result starts the next.
      await memory.appendTurn('c', [user(text()), call(`c${turn}`)], { metadata: { turnId } });
      turnIds.push(turnId);
      turnId = `${turnId}-result`;
      messages = [result(`c${turn}`, text()), answer(text())];
    } else messages = [user(text()), answer(text())];
    const regenerates = shape >= 0.9 && turnIds.length > 0 ? turnIds[Math.floor(random() * turnIds.length)] : undefined;
    await memory.appendTurn('c', messages, { metadata: { turnId, ...(regenerates === undefined ? {} : { regenerates }) } });
    turnIds.push(turnId);
  }
}
