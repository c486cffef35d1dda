import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, streamText, type TextStreamPart, type ToolSet, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type AdvisedResponse, type Advisor, advisorMiddleware } from '../../src/index.ts';
import { usage } from '../helpers/mock-models.ts';

const source = { id: 'doc-1', text: 'Paris is the capital of France.', metadata: { title: 'Atlas' }, score: 0.9 };

const modelParts: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'thinking' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Paris', providerMetadata: { provider: { itemId: 'item-7' } } },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

function streamingModel(parts: LanguageModelV4StreamPart[], chunkDelayInMs: number | null = null) {
  return new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks: parts, chunkDelayInMs }) }) });
}

/** Adds a retrieved document in `before` and records every response its `after` hook sees. */
function retrieving(afters: AdvisedResponse[], after?: () => void): Advisor {
  return {
    name: 'retrieving',
    order: 0,
    before: (request) => ({ ...request, sources: [source] }),
    after: (response) => {
      afters.push(response);
      after?.();
      return response;
    },
  };
}

/** How the step's stream is handled between the chain and the model: three shapes an advisor list can have. */
const wrappings: { name: string; advisors: Advisor[] }[] = [
  { name: 'no advisor wraps the stream', advisors: [] },
  {
    name: 'an aroundStream advisor passes the stream on as it is',
    advisors: [{ name: 'passing', aroundStream: (request, next) => next(request) }],
  },
  {
    name: 'an aroundStream advisor pipes the stream through a transform',
    advisors: [
      {
        name: 'piping',
        aroundStream: async (request, next) => {
          const advised = await next(request);
          return {
            ...advised,
            stream: advised.stream.pipeThrough(new TransformStream<TextStreamPart<ToolSet>, TextStreamPart<ToolSet>>()),
          };
        },
      },
    ],
  },
];

function withoutIds(parts: TextStreamPart<ToolSet>[]) {
  return parts.map((part) => ('id' in part && part.type === 'source' ? { ...part, id: '<source>' } : part));
}

describe('a model step through the middleware', () => {
  describe.each(wrappings)('when $name', ({ advisors }) => {
    it('passes every part on unchanged, sends the sources right after the start, and ends only after the after hooks ran', async () => {
      const afters: AdvisedResponse[] = [];
      const model = wrapLanguageModel({
        model: streamingModel(modelParts),
        middleware: advisorMiddleware([retrieving(afters), ...advisors]),
      });
      const parts: TextStreamPart<ToolSet>[] = [];
      let aftersWhenFinished = -1;
      for await (const part of streamText({ model, prompt: 'Capital of France?' }).stream) {
        parts.push(part);
        if (part.type === 'finish') aftersWhenFinished = afters.length;
      }

      expect(parts.map((part) => part.type)).toEqual([
        'start',
        'start-step',
        'source',
        'reasoning-start',
        'reasoning-delta',
        'reasoning-end',
        'text-start',
        'text-delta',
        'text-end',
        'finish-step',
        'finish',
      ]);
      expect(withoutIds(parts)[2]).toMatchObject({ type: 'source', sourceType: 'document', title: 'Atlas' });
      expect(parts.find((part) => part.type === 'text-delta')).toMatchObject({
        text: 'Paris',
        providerMetadata: { provider: { itemId: 'item-7' } },
      });
      expect(aftersWhenFinished).toBe(1);
      expect(afters[0]).toMatchObject({ outcome: 'finished', text: 'Paris', finishReason: 'stop' });
    });

    it('ends for a caller that reads the wrapped model stream itself, one part at a time', async () => {
      const afters: AdvisedResponse[] = [];
      const model = wrapLanguageModel({
        model: streamingModel(modelParts),
        middleware: advisorMiddleware([retrieving(afters), ...advisors]),
      });
      const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }] });
      const reader = stream.getReader();
      const types: string[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) types.push(next.value.type);

      expect(types).toEqual(['stream-start', 'source', ...modelParts.slice(1).map((part) => part.type)]);
      expect(afters.map((response) => response.outcome)).toEqual(['finished']);
    });

    it('reports an after hook that fails as an error part before the finish', async () => {
      const afters: AdvisedResponse[] = [];
      const failing = retrieving(afters, () => {
        throw new Error('store is down');
      });
      const model = wrapLanguageModel({ model: streamingModel(modelParts), middleware: advisorMiddleware([failing, ...advisors]) });
      const types: string[] = [];
      const errors: unknown[] = [];
      for await (const part of streamText({ model, prompt: 'Capital of France?', onError: () => {} }).stream) {
        types.push(part.type);
        if (part.type === 'error') errors.push(part.error);
      }

      expect(types.slice(-3)).toEqual(['error', 'finish-step', 'finish']);
      expect(String(errors[0])).toContain('store is down');
    });

    it('passes on a model stream that fails mid-answer as an error part, and the after hooks see the error and the text so far', async () => {
      const afters: AdvisedResponse[] = [];
      const failing = new MockLanguageModelV4({
        doStream: async () => {
          const parts = modelParts.slice(0, 6);
          return {
            stream: new ReadableStream<LanguageModelV4StreamPart>({
              pull(controller) {
                const part = parts.shift();
                if (part === undefined) controller.error(new Error('connection reset'));
                else controller.enqueue(part);
              },
            }),
          };
        },
      });
      const model = wrapLanguageModel({ model: failing, middleware: advisorMiddleware([retrieving(afters), ...advisors]) });
      const types: string[] = [];
      const errors: unknown[] = [];
      for await (const part of streamText({ model, prompt: 'Capital of France?', onError: () => {} }).stream) {
        types.push(part.type);
        if (part.type === 'error') errors.push(part.error);
      }

      expect(types).toContain('text-delta');
      expect(types.at(-1)).toBe('finish');
      expect(String(errors[0])).toContain('connection reset');
      expect(afters).toHaveLength(1);
      expect(afters[0]).toMatchObject({ outcome: 'error', text: 'Paris' });
      expect(String(afters[0]!.error)).toContain('connection reset');
    });

    it('runs the after hooks with an aborted outcome when the caller stops reading, and cancels the model stream', async () => {
      const afters: AdvisedResponse[] = [];
      let modelCancelled = false;
      const counting = new MockLanguageModelV4({
        doStream: async () => {
          const reader = simulateReadableStream({ chunks: modelParts, chunkDelayInMs: 5 }).getReader();
          return {
            stream: new ReadableStream<LanguageModelV4StreamPart>({
              async pull(controller) {
                const next = await reader.read();
                if (next.done) controller.close();
                else controller.enqueue(next.value);
              },
              cancel: (reason) => {
                modelCancelled = true;
                return reader.cancel(reason);
              },
            }),
          };
        },
      });
      const controller = new AbortController();
      const model = wrapLanguageModel({ model: counting, middleware: advisorMiddleware([retrieving(afters), ...advisors]) });
      const result = streamText({ model, prompt: 'Capital of France?', abortSignal: controller.signal });
      for await (const part of result.stream) {
        if (part.type === 'reasoning-delta') controller.abort();
      }
      await expect.poll(() => afters.length).toBe(1);

      expect(afters[0]!.outcome).toBe('aborted');
      expect(modelCancelled).toBe(true);
    });
  });
});
