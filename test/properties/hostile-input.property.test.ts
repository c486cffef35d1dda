import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../advisors/memory/index.ts';
import { questionAnswerAdvisor } from '../../advisors/rag/question-answer-advisor.ts';
import { RagFilter } from '../../advisors/rag/rag-context-keys.ts';
import { createChatClient } from '../../src/client/create-chat-client.ts';
import { AdvisorArgumentError } from '../../src/errors/advisor-argument-error.ts';
import { matchesFilter } from '../../src/filter/match-filter.ts';
import { parseFilter } from '../../src/filter/parse-filter.ts';
import { resolveFilter } from '../../src/filter/resolve-filter.ts';
import { createChatMemory } from '../../src/memory/chat-memory.ts';
import { createInMemoryVectorStore } from '../../src/vector-store/in-memory-vector-store.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';

/** Runs `work`; it must return or throw an AdvisorArgumentError (a clear, typed error), nothing else. */
function typedOrResult<T>(work: () => T): { ok: true; value: T } | { ok: false; error: AdvisorArgumentError } {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (!(error instanceof AdvisorArgumentError)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
    return { ok: false, error };
  }
}

const filterTokens = fc.constantFrom(
  'tenant',
  '==',
  '!=',
  '>=',
  '<',
  'IN',
  'NIN',
  'NOT',
  'AND',
  'OR',
  '&&',
  '||',
  '(',
  ')',
  '[',
  ']',
  ',',
  'IS',
  'NULL',
  "'a'",
  '"b"',
  "'",
  '"',
  '\\',
  '1',
  '-2.5e3',
  'true',
  'false',
  'x.y',
  '\u0000',
  '\ud800',
  '😀',
  ' ',
  '\n',
);
const hostileFilterText = fc.oneof(
  fc.string({ maxLength: 60, unit: 'binary' }),
  fc.array(filterTokens, { maxLength: 30 }).map((tokens) => tokens.join(' ')),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'('.repeat(depth)}a == 1${')'.repeat(depth)}`),
  fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'NOT '.repeat(depth)}a == 1`),
  fc.constant(`a IN [${Array.from({ length: 3_000 }, (_, index) => index).join(',')}]`),
);

describe('hostile filter text', () => {
  it('parses to a filter the evaluator accepts, or throws a clear AdvisorArgumentError; never another error or a hang', () => {
    fc.assert(
      fc.property(hostileFilterText, (text) => {
        const parsed = typedOrResult(() => parseFilter(text));
        if (parsed.ok) expect(typeof matchesFilter(parsed.value, { tenant: 'a', a: 1 })).toBe('boolean');
      }),
      { numRuns: 400 },
    );
  });

  it('hostile filter objects (as from JSON) are validated the same way', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.anything({ maxDepth: 4 }), (json, anything) => {
        typedOrResult(() => resolveFilter(json as never));
        typedOrResult(() => resolveFilter(anything as never));
      }),
      { numRuns: 300 },
    );
  });

  it('through the chat client, a bad per-call filter fails the turn before any retrieval, model call or memory write', async () => {
    const memory = createChatMemory();
    let searches = 0;
    const vectorStore = createInMemoryVectorStore({ dimensions: 2 });
    const countingStore = {
      ...vectorStore,
      name: 'counting',
      search: (request: Parameters<typeof vectorStore.search>[0]) => (
        searches++,
        vectorStore.search({ ...request, query: undefined, vector: [1, 0] })
      ),
    };
    const model = mockModel([textParts(['ok'])]);
    const chat = createChatClient({
      model,
      advisors: [messageMemoryAdvisor({ memory }), questionAnswerAdvisor({ vectorStore: countingStore })],
    });
    await fc.assert(
      fc.asyncProperty(hostileFilterText, async (text) => {
        if (typedOrResult(() => resolveFilter(text)).ok) return;
        const before = { searches, modelCalls: model.doStreamCalls.length };
        const result = chat.stream({ prompt: 'question', context: { conversationId: 'filters', [RagFilter.name]: text } });
        const response = await result.response;
        expect(response.outcome).toBe('error');
        expect(response.error).toBeInstanceOf(AdvisorArgumentError);
        expect({ searches, modelCalls: model.doStreamCalls.length }).toEqual(before);
      }),
      { numRuns: 100 },
    );
    expect(await memory.read('filters')).toEqual([]);
  });
});

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.constantFrom('', ' ', '\ud800', '\udfff lone', '\u0000', 'x'.repeat(200_000)),
);
const hostileMessage = fc.oneof(
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'tool', 'system', 'admin', '', 'USER'),
    content: fc.oneof(
      hostileText,
      fc.constant(null),
      fc.constant([]),
      fc.array(fc.record({ type: fc.constantFrom('text', 'image', 'bogus'), text: hostileText }), { maxLength: 2 }),
    ),
  }),
  fc.anything({ maxDepth: 2 }),
);

describe('hostile message arrays', () => {
  it('are answered correctly or refused with a typed error before any model call, and memory holds the whole turn or nothing', async () => {
    const memory = createChatMemory({ window: false });
    const model = mockModel([textParts(['fine'])]);
    const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory })] });
    let turn = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(hostileMessage, { maxLength: 4 }), fc.anything({ maxDepth: 2 })), async (messages) => {
        const conversationId = `m-${turn++}`;
        const calls = model.doStreamCalls.length;
        const started = typedOrResult(() => chat.stream({ messages: messages as never, context: { conversationId } }));
        if (!started.ok) {
          expect(model.doStreamCalls.length).toBe(calls);
          expect(await memory.read(conversationId)).toEqual([]);
          return;
        }
        const response = await started.value.response;
        const stored = await memory.read(conversationId);
        if (response.outcome === 'finished') {
          expect(response.text).toBe('fine');
          expect(stored.map((entry) => entry.message)).toEqual([...response.request.input, ...response.messages]);
        } else {
          expect(response.error).toBeInstanceOf(Error);
          expect((response.error as { component?: unknown }).component).toEqual(expect.any(String));
          expect(stored).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('hostile option objects', () => {
  const factories: Record<string, (options: never) => unknown> = {
    createChatClient,
    createChatMemory,
    messageMemoryAdvisor,
    questionAnswerAdvisor,
    createInMemoryVectorStore,
  };
  const optionValue = fc.oneof(
    fc.anything({ maxDepth: 1 }),
    fc.constantFrom(-1, 0, Number.NaN, Infinity, '', null, {}, [], () => {}),
  );
  const options = fc.oneof(
    fc.anything({ maxDepth: 2 }),
    fc.dictionary(
      fc.constantFrom(
        'model',
        'memory',
        'store',
        'window',
        'timeout',
        'topK',
        'minScore',
        'filter',
        'vectorStore',
        'order',
        'name',
        'onAbort',
        'dimensions',
        'advisors',
        'temprature',
      ),
      optionValue,
      { maxKeys: 4 },
    ),
  );

  it.each(Object.keys(factories))('%s either builds or throws AdvisorArgumentError, never a TypeError', (name) => {
    fc.assert(
      fc.property(options, (candidate) => {
        typedOrResult(() => factories[name](candidate as never));
      }),
      { numRuns: 300 },
    );
  });
});
