import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createUIMessageStreamResponse, readUIMessageStream, simulateReadableStream, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type AdvisedResponse, type Advisor, ComponentError, createChatClient, type Document } from '../../src/index.ts';
import { mockModel, textParts, hangingModel } from '../helpers/mock-models.ts';

function recordingAdvisor(responses: AdvisedResponse[]): Advisor {
  return { name: 'recorder', after: (response) => (responses.push(response), response) };
}

async function readAll(stream: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const delta of stream) text += delta;
  return text;
}

describe('streaming turn lifecycle', () => {
  it('passes parts through as the model produces them, before the turn ends', async () => {
    const release = Promise.withResolvers<void>();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            for (const part of textParts(['first'])) if (part.type !== 'finish' && part.type !== 'text-end') controller.enqueue(part);
            await release.promise;
            controller.enqueue({ type: 'text-delta', id: 't', delta: ' second' });
            for (const part of textParts([]).slice(-2)) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
    });
    const chat = createChatClient({ model, advisors: [{ name: 'noop', before: (r) => r, after: (r) => r }] });
    const iterator = chat.stream({ prompt: 'hi' }).textStream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe('first');
    release.resolve();
    expect((await iterator.next()).value).toBe(' second');
  });

  it('gives every text stream the whole answer, whether taken before, during or after the turn', async () => {
    const chat = createChatClient({ model: mockModel([textParts(['Hel', 'lo', '', '!'])]) });
    const result = chat.stream({ prompt: 'hi' });
    const early = result.textStream;
    const full = result.fullStream[Symbol.asyncIterator]();
    while ((await full.next()).value?.type !== 'text-delta');
    const during = result.textStream;
    await result.response;
    const after = result.textStream;

    const deltas = async (stream: AsyncIterable<string>) => {
      const all: string[] = [];
      for await (const delta of stream) all.push(delta);
      return all;
    };
    for (const stream of [early, during, after]) expect(await deltas(stream)).toEqual(['Hel', 'lo', '!']);
  });

  it('runs after hooks exactly once on the aggregated response of a finished stream', async () => {
    const responses: AdvisedResponse[] = [];
    const chat = createChatClient({ model: mockModel([textParts(['Hel', 'lo'])]), advisors: [recordingAdvisor(responses)] });
    const result = chat.stream({ prompt: 'hi' });
    expect(await readAll(result.textStream)).toBe('Hello');
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ outcome: 'finished', text: 'Hello', finishReason: 'stop' });
    expect(responses[0]!.messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Hello' }] }]);
    await result.response;
    expect(responses).toHaveLength(1);
  });

  it('runs after hooks once with outcome "error" when the model fails mid-stream, keeping the partial text', async () => {
    const responses: AdvisedResponse[] = [];
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV4StreamPart>({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'partial' },
            { type: 'error', error: new Error('upstream 500') },
          ],
        }),
      }),
    });
    const chat = createChatClient({ model, advisors: [recordingAdvisor(responses)] });
    const result = chat.stream({ prompt: 'hi' });
    const parts = [];
    for await (const part of result.stream) parts.push(part);
    const response = await result.response;
    expect(responses).toHaveLength(1);
    expect(response.outcome).toBe('error');
    expect(response.error).toBeInstanceOf(ComponentError);
    expect((response.error as ComponentError).component).toBe('model');
    expect(response.text).toBe('partial');
    expect(parts.some((part) => part.type === 'error')).toBe(true);
    await expect(result.text).rejects.toThrow(/upstream 500/);
  });

  it('runs after hooks once with outcome "error" when the model fails before the first token', async () => {
    const responses: AdvisedResponse[] = [];
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error('connection refused');
      },
    });
    const chat = createChatClient({ model, advisors: [recordingAdvisor(responses)], maxRetries: 0 });
    const result = chat.stream({ prompt: 'hi' });
    await result.consumeStream();
    expect(responses).toHaveLength(1);
    expect(responses[0]!.outcome).toBe('error');
    expect(responses[0]!.messages).toEqual([]);
  });

  it('runs after hooks once with outcome "aborted" and the partial answer when the caller aborts', async () => {
    const responses: AdvisedResponse[] = [];
    const model = hangingModel('The answer is');
    const abort = new AbortController();
    const chat = createChatClient({ model, advisors: [recordingAdvisor(responses)] });
    const result = chat.stream({ prompt: 'hi', abortSignal: abort.signal });
    const iterator = result.textStream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe('The answer is');
    abort.abort();
    await result.consumeStream();
    const response = await result.response;
    expect(responses).toHaveLength(1);
    expect(response.outcome).toBe('aborted');
    expect(response.messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'The answer is' }] }]);
  });

  it("ends the model call with the caller's reason, and an already aborted signal before the model answers", async () => {
    const abort = new AbortController();
    const chat = createChatClient({ model: hangingModel('The answer is') });
    const result = chat.stream({ prompt: 'hi', abortSignal: abort.signal });
    const iterator = result.textStream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe('The answer is');
    const reason = new Error('the page was closed');
    abort.abort(reason);
    await result.consumeStream();
    expect(await result.response).toMatchObject({ outcome: 'aborted', error: reason });

    let modelSignal: AbortSignal | undefined;
    const model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => {
        modelSignal = abortSignal;
        return { stream: new ReadableStream<LanguageModelV4StreamPart>({ start: (controller) => controller.close() }) };
      },
    });
    const late = createChatClient({ model }).stream({ prompt: 'hi', abortSignal: AbortSignal.abort(reason) });
    await late.consumeStream();
    expect(await late.response).toMatchObject({ outcome: 'aborted', error: reason });
    expect(modelSignal === undefined || modelSignal.aborted).toBe(true);
  });

  it("leaves no listener on a caller's signal once each turn has ended, however it ended", async () => {
    const shared = new AbortController().signal;
    const finished = createChatClient({ model: mockModel([textParts(['Hello'])]) }).stream({ prompt: 'hi', abortSignal: shared });
    expect(await finished.text).toBe('Hello');
    const failing = createChatClient({ model: new MockLanguageModelV4({ doStream: () => Promise.reject(new Error('down')) }) });
    const failed = failing.stream({ prompt: 'hi', abortSignal: shared });
    await failed.consumeStream();
    expect((await failed.response).outcome).toBe('error');
    const cancelled = createChatClient({ model: hangingModel('Partial') }).stream({ prompt: 'hi', abortSignal: shared });
    const reader = cancelled.textStream.getReader();
    expect((await reader.read()).value).toBe('Partial');
    await reader.cancel();
    expect((await cancelled.response).outcome).toBe('aborted');
    expect(getEventListeners(shared, 'abort')).toEqual([]);
  });

  it('aborts the model call when the only consumer cancels the stream (client disconnect)', async () => {
    const responses: AdvisedResponse[] = [];
    let modelSignal: AbortSignal | undefined;
    const model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => {
        modelSignal = abortSignal;
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] });
              controller.enqueue({ type: 'text-start', id: 't' });
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hello' });
            },
          }),
        };
      },
    });
    const chat = createChatClient({ model, advisors: [recordingAdvisor(responses)] });
    const result = chat.stream({ prompt: 'hi' });
    const reader = result.toUIMessageStream().getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if ((chunk.value as { type: string }).type === 'text-delta') break;
    }
    await reader.cancel();
    const response = await result.response;
    expect(modelSignal?.aborted).toBe(true);
    expect(response.outcome).toBe('aborted');
    expect(responses).toHaveLength(1);
  });

  it('turns an advisor failure in before into a failed turn without calling the model', async () => {
    const responses: AdvisedResponse[] = [];
    const model = mockModel([textParts(['never'])]);
    const chat = createChatClient({
      model,
      advisors: [
        recordingAdvisor(responses),
        {
          name: 'broken-retriever',
          order: 1,
          before: () => {
            throw new Error('index offline');
          },
        },
      ],
    });
    const result = chat.stream({ prompt: 'hi' });
    await result.consumeStream();
    const response = await result.response;
    expect(model.doStreamCalls).toHaveLength(0);
    expect(response.outcome).toBe('error');
    expect(response.error).toBeInstanceOf(ComponentError);
    expect(String(response.error)).toMatch(/broken-retriever: before failed: index offline/);
    expect(responses).toHaveLength(1);
    await expect(chat.generate({ prompt: 'hi' })).rejects.toThrow(/broken-retriever/);
  });

  it('closes the stream only after every after hook has finished', async () => {
    const events: string[] = [];
    const chat = createChatClient({
      model: mockModel([textParts(['ok'])]),
      advisors: [
        {
          name: 'slow-store',
          after: async (response) => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            events.push('stored');
            return response;
          },
        },
      ],
    });
    await readAll(chat.stream({ prompt: 'hi' }).textStream);
    events.push('stream closed');
    expect(events).toEqual(['stored', 'stream closed']);
  });
});

describe('sources and the UI message stream', () => {
  const documents: Document[] = [
    { id: 'doc-1', text: 'Marie Curie was born in Warsaw in 1867.', metadata: { title: 'Biography' }, score: 0.9 },
    { id: 'doc-2', text: 'Terms of use.', metadata: { url: 'https://example.com/terms', title: 'Terms' }, score: 0.4 },
  ];
  const retrieval: Advisor = { name: 'retrieval', before: (request) => ({ ...request, sources: documents }) };

  it('streams source parts before the answer text and exposes them on the result', async () => {
    const chat = createChatClient({ model: mockModel([textParts(['Warsaw.'])]), advisors: [retrieval] });
    const result = chat.stream({ prompt: 'Where was she born?' });
    const types: string[] = [];
    for await (const part of result.stream) types.push(part.type === 'source' ? `source:${part.sourceType}` : part.type);
    expect(types.indexOf('source:document')).toBeLessThan(types.indexOf('text-delta'));
    expect(types).toContain('source:url');
    expect((await result.sources).map((document) => document.id)).toEqual(['doc-1', 'doc-2']);
  });

  it('sends the source parts before the error of a model call that fails at once', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error('model unavailable');
      },
    });
    const chat = createChatClient({ model, advisors: [retrieval] });
    const types: string[] = [];
    for await (const part of chat.stream({ prompt: 'Where was she born?' }).stream) types.push(part.type);
    expect(types.slice(0, 4)).toEqual(['start', 'source', 'source', 'error']);
  });

  it('works with toUIMessageStream + createUIMessageStreamResponse as a route handler would use it', async () => {
    const chat = createChatClient({ model: mockModel([textParts(['Warsaw', '.'])]), advisors: [retrieval] });
    const uiMessages: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where was she born?' }] }];
    const result = chat.stream({ messages: uiMessages });
    const response = createUIMessageStreamResponse({ stream: result.toUIMessageStream() });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const body = await response.text();
    expect(body).toContain('"type":"source-document"');
    expect(body).toContain('"type":"source-url"');
    expect(body).toContain('"delta":"Warsaw"');
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
  });

  it('produces a UI message with the text and the sources', async () => {
    const chat = createChatClient({ model: mockModel([textParts(['Warsaw.'])]), advisors: [retrieval] });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream: chat.stream({ prompt: 'Where?' }).toUIMessageStream() })) {
      last = message as UIMessage;
    }
    expect(last?.parts.filter((part) => part.type === 'source-document')).toHaveLength(1);
    expect(last?.parts.find((part) => part.type === 'text')).toMatchObject({ text: 'Warsaw.' });
  });
});
