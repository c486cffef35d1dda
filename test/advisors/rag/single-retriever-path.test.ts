import { OpenTelemetry } from '@ai-sdk/otel';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retrievalAugmentationAdvisor, type RetrievalTrace } from '../../../advisors/rag/index.ts';
import { AdvisorTimeoutError, ComponentError, createChatClient, type AdvisedResponse, type Document } from '../../../src/index.ts';
import { useInMemoryTracing } from '../../helpers/in-memory-tracing.ts';
import { mockModel, promptText, textParts } from '../../helpers/mock-models.ts';

useInMemoryTracing();

/** What a retriever returns: ids may repeat, scores may be missing. */
const hits = fc.array(
  fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    text: fc.constantFrom('refund policy', 'shipping times', 'privacy notice'),
    score: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  }),
  { maxLength: 8 },
);

const settings = fc.record({
  topK: fc.integer({ min: 1, max: 6 }),
  minScore: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  candidateK: fc.option(fc.integer({ min: 6, max: 10 }), { nil: undefined }),
  failure: fc.constantFrom('none', 'error', 'timeout'),
  onRetrieverError: fc.constantFrom('fail', 'ignore'),
});

type Settings = { topK: number; minScore?: number; candidateK?: number; failure: string; onRetrieverError: 'fail' | 'ignore' };

/** One turn with a single retriever: untraced it takes the advisor's one-search path, traced the staged pipeline. */
async function turn(returned: readonly Omit<Document, 'metadata'>[], options: Settings, traced: boolean) {
  const model = mockModel([textParts(['ok'])]);
  const rag = retrievalAugmentationAdvisor({
    retrievers: [
      {
        name: 'kb',
        retrieve: async (_query, call) => {
          if (options.failure === 'error') throw new Error('index offline');
          // Answers only after the deadline has aborted the call: a sleep could end first if the process stalls before
          // the deadline is armed.
          if (options.failure === 'timeout')
            await new Promise((resolve) => call!.abortSignal!.addEventListener('abort', resolve, { once: true }));
          return returned.map((hit) => ({ ...hit, metadata: {} }));
        },
      },
    ],
    topK: options.topK,
    minScore: options.minScore,
    candidateK: options.candidateK,
    retrieverTimeoutMs: 10,
    onRetrieverError: options.onRetrieverError,
  });
  const chat = createChatClient({
    model,
    advisors: [rag],
    ...(traced && { telemetry: { isEnabled: true, integrations: new OpenTelemetry() } }),
  });
  const response: AdvisedResponse = await chat.stream({ prompt: 'refund policy?' }).response;
  const { trace, ...metadata } = response.metadata['retrieval-augmentation'] ?? {};
  const { timings, hits: searches, ...untimed } = (trace ?? {}) as Partial<RetrievalTrace>;
  return {
    outcome: response.outcome,
    error: response.error instanceof Error ? [response.error.constructor.name, response.error.message] : undefined,
    prompt: model.doStreamCalls.map(promptText),
    sources: response.sources,
    metadata,
    trace: { ...untimed, hits: searches?.map(({ ms, ...search }) => search) },
    stages: Object.keys(timings ?? {}),
  };
}

describe('retrievalAugmentationAdvisor with one retriever: the one-search path', () => {
  it('property: an untraced turn injects, exposes and traces exactly what the staged pipeline does', async () => {
    await fc.assert(
      fc.asyncProperty(hits, settings, async (returned, options) => {
        fc.pre(options.minScore === undefined || options.failure === 'none' || options.onRetrieverError === 'ignore');
        expect(await turn(returned, options, false)).toEqual(await turn(returned, options, true));
      }),
      { numRuns: 60 },
    );
  });

  it('fails the turn with the retriever error or deadline, or leaves the source out when told to', async () => {
    const failing = { topK: 3, failure: 'error', onRetrieverError: 'fail' } as const;
    expect((await turn([], failing, false)).error).toEqual([ComponentError.name, expect.stringMatching(/index offline/)]);
    const late = { topK: 3, failure: 'timeout', onRetrieverError: 'fail' } as const;
    expect((await turn([], late, false)).error).toEqual([AdvisorTimeoutError.name, expect.stringMatching(/timed out after 10 ms/)]);
    const tolerated = await turn([], { ...late, onRetrieverError: 'ignore' }, false);
    expect(tolerated.outcome).toBe('finished');
    expect(tolerated.trace.hits).toEqual([
      { query: 0, retriever: 'kb', count: 0, documents: [], error: expect.stringMatching(/timed out/) },
    ]);
  });
});
