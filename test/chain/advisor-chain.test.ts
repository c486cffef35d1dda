import { describe, expect, it } from 'vitest';
import {
  type AdvisedRequest,
  type Advisor,
  AdvisorArgumentError,
  answerDirectly,
  ComponentError,
  contextKey,
  createAdvisorChain,
  createChatClient,
  streamDirectAnswer,
} from '../../src/index.ts';
import { mockModel, promptText, textParts } from '../helpers/mock-models.ts';

function tracingAdvisor(name: string, trace: string[], order?: number): Advisor {
  return {
    name,
    order,
    before: (request) => {
      trace.push(`${name}.before`);
      return request;
    },
    after: (response) => {
      trace.push(`${name}.after`);
      return response;
    },
  };
}

describe('advisor order', () => {
  it('runs lower orders first on the request and last on the response', async () => {
    const trace: string[] = [];
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [tracingAdvisor('inner', trace, 10), tracingAdvisor('outer', trace, -10), tracingAdvisor('middle', trace)],
    });
    await chat.generate({ prompt: 'hi' });
    expect(trace).toEqual(['outer.before', 'middle.before', 'inner.before', 'inner.after', 'middle.after', 'outer.after']);
  });

  it('keeps registration order for equal orders, client advisors before per-call advisors', async () => {
    const trace: string[] = [];
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [tracingAdvisor('a', trace, 5), tracingAdvisor('b', trace, 5)],
    });
    await chat.generate({ prompt: 'hi', advisors: [tracingAdvisor('c', trace, 5), tracingAdvisor('d', trace, 5)] });
    expect(trace.filter((entry) => entry.endsWith('before'))).toEqual(['a.before', 'b.before', 'c.before', 'd.before']);
  });

  it('never drops an advisor, whatever its order', async () => {
    const trace: string[] = [];
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [tracingAdvisor('last', trace, Number.MAX_SAFE_INTEGER), tracingAdvisor('first', trace, -Number.MAX_SAFE_INTEGER)],
    });
    await chat.generate({ prompt: 'hi' });
    expect(trace).toEqual(['first.before', 'last.before', 'last.after', 'first.after']);
  });

  it('is immutable: per-call advisors do not leak into the next call', async () => {
    const trace: string[] = [];
    const chat = createChatClient({ model: mockModel([textParts(['ok'])]), advisors: [tracingAdvisor('base', trace)] });
    await chat.generate({ prompt: 'one', advisors: [tracingAdvisor('extra', trace)] });
    trace.length = 0;
    await chat.generate({ prompt: 'two' });
    expect(trace).toEqual(['base.before', 'base.after']);
    expect(chat.chain.advisors.map((advisor) => advisor.name)).toEqual(['base']);
    expect(Object.isFrozen(chat.chain.advisors)).toBe(true);
  });
});

describe('advisor validation', () => {
  it.each([
    ['an advisor without a name', [{ before: (r: AdvisedRequest) => r }], /needs a non-empty name/],
    ['a non-numeric order', [{ name: 'x', order: '1', before: (r: AdvisedRequest) => r }], /order "1".*finite number/],
    ['an infinite order', [{ name: 'x', order: Number.NaN, before: (r: AdvisedRequest) => r }], /finite number/],
    [
      'two advisors with the same name',
      [
        { name: 'x', before: (r: AdvisedRequest) => r },
        { name: 'x', after: (r: unknown) => r },
      ],
      /two advisors are named "x"/,
    ],
    ['an advisor without hooks', [{ name: 'x' }], /has none of before, after/],
    ['a hook that is not a function', [{ name: 'x', before: 'nope' }], /before must be a function/],
  ])('rejects %s at construction', (_, advisors, message) => {
    expect(() => createAdvisorChain(advisors as unknown as Advisor[])).toThrow(AdvisorArgumentError);
    expect(() => createAdvisorChain(advisors as unknown as Advisor[])).toThrow(message);
  });

  it('rejects a per-call advisor whose name collides with a client advisor, before calling the model', async () => {
    const model = mockModel([textParts(['ok'])]);
    const chat = createChatClient({ model, advisors: [{ name: 'memory', before: (r) => r }] });
    expect(() => chat.stream({ prompt: 'hi', advisors: [{ name: 'memory', after: (r) => r }] })).toThrow(/two advisors are named "memory"/);
    expect(model.doStreamCalls).toHaveLength(0);
  });
});

describe('context', () => {
  const TopK = contextKey<number>('topK', {
    parse: (value) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError('expected a positive integer');
      return value;
    },
  });

  it('carries typed per-call values and advisor metadata back to the caller', async () => {
    const seen: number[] = [];
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [
        {
          name: 'reader',
          before: (request) => {
            seen.push(request.context.require(TopK, 'reader'));
            request.context.annotate('reader', { used: true });
            return request;
          },
        },
      ],
    });
    const response = await chat.generate({ prompt: 'hi', context: { topK: 7 } });
    expect(seen).toEqual([7]);
    expect(response.metadata).toEqual({ reader: { used: true } });
    expect(response.context.get(TopK)).toBe(7);
  });

  it('reports an invalid context value as a typed error naming the key, before the model is called', async () => {
    const model = mockModel([textParts(['ok'])]);
    const chat = createChatClient({
      model,
      advisors: [{ name: 'reader', before: (request) => (request.context.require(TopK, 'reader'), request) }],
    });
    await expect(chat.generate({ prompt: 'hi', context: { topK: 'ten' } })).rejects.toThrow(/topK: expected a positive integer/);
    await expect(chat.generate({ prompt: 'hi' })).rejects.toThrow(/"topK" is required/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('gives each concurrent request its own context', async () => {
    const Tag = contextKey<string>('tag');
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [
        {
          name: 'tagger',
          before: async (request) => {
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
            request.context.annotate('tagger', { tag: request.context.get(Tag) });
            return request;
          },
        },
      ],
    });
    const tags = Array.from({ length: 20 }, (_, index) => `t${index}`);
    const responses = await Promise.all(tags.map((tag) => chat.generate({ prompt: 'hi', context: { tag } })));
    expect(responses.map((response) => response.metadata.tagger?.tag)).toEqual(tags);
  });
});

describe('short-circuit and re-entry', () => {
  it('lets an around advisor answer without calling the model or the inner advisors', async () => {
    const model = mockModel([textParts(['model answer'])]);
    const trace: string[] = [];
    const chat = createChatClient({
      model,
      advisors: [
        {
          name: 'gate',
          aroundCall: (request) => answerDirectly(request, { advisor: 'gate', text: 'Not today.' }),
          aroundStream: (request) => streamDirectAnswer(request, { advisor: 'gate', text: 'Not today.' }),
        },
        tracingAdvisor('inner', trace, 1),
      ],
    });
    const generated = await chat.generate({ prompt: 'hi' });
    expect(generated.text).toBe('Not today.');
    expect(generated.answeredBy).toBe('gate');

    const streamed = chat.stream({ prompt: 'hi' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe('Not today.');
    expect((await streamed.response).answeredBy).toBe('gate');
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(model.doStreamCalls).toHaveLength(0);
    expect(trace).toEqual([]);
  });

  it('lets an around advisor rebuild what `next` gives it with a spread, stream included', async () => {
    const model = mockModel([textParts(['streamed ', 'answer'])]);
    const chat = createChatClient({
      model,
      advisors: [
        {
          name: 'relabelling',
          aroundStream: async (request, next) => {
            const advised = await next(request);
            return { ...advised, response: advised.response.then((response) => ({ ...response, answeredBy: 'relabelling' })) };
          },
        },
        tracingAdvisor('inner', [], 1),
      ],
    });
    const streamed = chat.stream({ prompt: 'hi' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe('streamed answer');
    expect((await streamed.response).answeredBy).toBe('relabelling');
  });

  it('lets an around advisor call the rest of the chain again (retry)', async () => {
    const model = mockModel([textParts(['draft']), textParts(['final answer'])]);
    const trace: string[] = [];
    const chat = createChatClient({
      model,
      advisors: [
        {
          name: 'retry-until-final',
          async aroundCall(request, next) {
            let response = await next(request);
            for (let attempt = 0; attempt < 3 && !response.text.includes('final'); attempt++) {
              response = await next({ ...request, instructions: 'Give your final answer.' });
            }
            return response;
          },
        },
        tracingAdvisor('inner', trace, 1),
      ],
    });
    const response = await chat.generate({ prompt: 'hi' });
    expect(response.text).toBe('final answer');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptText(model.doGenerateCalls[1]!)).toContain('system: Give your final answer.');
    expect(trace).toEqual(['inner.before', 'inner.after', 'inner.before', 'inner.after']);
  });
});

describe('a failing hook', () => {
  /** Records each hook, and the outcome and failing component each `after` hook is given. */
  function recordingAdvisor(name: string, order: number, trace: string[], overrides: Partial<Advisor> = {}): Advisor {
    return {
      name,
      order,
      before: (request) => (trace.push(`${name}.before`), request),
      after: (response) => {
        const failed = response.error instanceof ComponentError ? ` ${response.error.component}.${response.error.operation}` : '';
        trace.push(`${name}.after(${response.outcome}${failed})`);
        return response;
      },
      ...overrides,
    };
  }
  const fail = () => {
    throw new Error('hook failed');
  };

  /**
   * One turn on `path` through `outer`, `failing` (with `overrides`) and
   * `inner`: the hooks that ran, and whether the model was called.
   * `generate` rejects with the failure the `after` hooks saw.
   */
  async function turnThrough(path: 'stream' | 'generate', overrides: Partial<Advisor>) {
    const model = mockModel([textParts(['answer'])]);
    const trace: string[] = [];
    const chat = createChatClient({
      model,
      advisors: [
        recordingAdvisor('outer', 0, trace),
        recordingAdvisor('failing', 1, trace, overrides),
        recordingAdvisor('inner', 2, trace),
      ],
    });
    if (path === 'stream') await chat.stream({ prompt: 'hi' }).response;
    else await chat.generate({ prompt: 'hi' }).catch((error: unknown) => expect(error).toBeInstanceOf(ComponentError));
    return { trace, modelCalls: model.doStreamCalls.length + model.doGenerateCalls.length };
  }

  it.each(['stream', 'generate'] as const)(
    'in `before` skips that advisor and the inner ones; the outer advisors see the failure in `after` (%s)',
    async (path) => {
      const { trace, modelCalls } = await turnThrough(path, { before: fail });
      expect(trace).toEqual(['outer.before', 'outer.after(error failing.before)']);
      expect(modelCalls).toBe(0);
    },
  );

  it('in `before` that passes on no complete request fails the turn with an error naming the advisor', async () => {
    const model = mockModel([textParts(['answer'])]);
    const chat = createChatClient({ model, advisors: [{ name: 'careless', before: () => ({ prompt: 'hi' }) as never }] });
    const { outcome, error } = await chat.stream({ prompt: 'hi' }).response;
    expect(outcome).toBe('error');
    expect(error).toBeInstanceOf(AdvisorArgumentError);
    expect(error).toMatchObject({ component: 'careless', argument: 'request' });
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it.each([
    ['stream', 'aroundStream'],
    ['generate', 'aroundCall'],
  ] as const)("in an around hook still runs that advisor's `after`, then the outer ones (%s)", async (path, operation) => {
    const { trace } = await turnThrough(path, { aroundStream: fail, aroundCall: fail });
    expect(trace).toEqual([
      'outer.before',
      'failing.before',
      `failing.after(error failing.${operation})`,
      `outer.after(error failing.${operation})`,
    ]);
  });

  it.each(['stream', 'generate'] as const)('in `after` reaches the outer `after` hooks as an error, which still run (%s)', async (path) => {
    const { trace } = await turnThrough(path, { after: fail });
    expect(trace).toEqual(['outer.before', 'failing.before', 'inner.before', 'inner.after(finished)', 'outer.after(error failing.after)']);
  });
});
