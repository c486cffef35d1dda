/**
 * Chain overhead: bare `streamText` on a mock model vs the same call through
 * one and six no-op advisors, on the chat client and on the middleware, in one
 * run with interleaved samples. Reports per-call time, added time per call,
 * the time-to-first-token ratio and what one more advisor costs, for a
 * zero-latency mock (pure overhead) and a mock with a realistic 20 ms
 * first-token latency.
 *
 * Run: npm run bench:chain (plain `node`: Node strips the types itself). It
 * measures microseconds of the library's own closures, so it runs the code as
 * a build ships it: tsx compiles with esbuild's `keepNames`, which wraps every
 * function expression in a `__name` call that no user build has, and doubled
 * the overhead measured here.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { type Advisor, advisorMiddleware, createChatClient } from '../src/index.ts';
import { printMachineFacts } from './machine-facts.ts';
import { median } from './statistics.ts';

const ITERATIONS = Number(process.env.ITERATIONS ?? 1500);
const WARMUP = 200;

function mockModel(firstTokenDelayMs: number | null): MockLanguageModelV4 {
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...Array.from({ length: 20 }, (_, index): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta: `word${index} ` })),
    { type: 'text-end', id: 't' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 20, text: 20, reasoning: undefined },
      },
    },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({ chunks, initialDelayInMs: firstTokenDelayMs, chunkDelayInMs: null }),
    }),
  });
}

const noOpAdvisors: Advisor[] = Array.from({ length: 6 }, (_, index) => ({
  name: `no-op-${index}`,
  order: index,
  before: (request) => request,
  after: (response) => response,
}));

type Variant = { name: string; run: () => AsyncIterable<string> };

function variants(model: MockLanguageModelV4): Variant[] {
  const variantsWith = (advisors: Advisor[], traced = false): Variant[] => {
    const telemetry = traced ? { isEnabled: true } : undefined;
    const client = createChatClient({ model, advisors, telemetry });
    const wrapped = wrapLanguageModel({ model, middleware: advisorMiddleware({ advisors, telemetry }) });
    const count = `${advisors.length} advisor${advisors.length === 1 ? '' : 's'}${traced ? ', traced' : ''}`;
    return [
      { name: `chat client, ${count}`, run: () => client.stream({ prompt: 'hi' }).textStream },
      { name: `middleware, ${count}`, run: () => streamText({ model: wrapped, prompt: 'hi' }).textStream },
    ];
  };
  return [
    { name: 'bare streamText', run: () => streamText({ model, prompt: 'hi' }).textStream },
    ...variantsWith(noOpAdvisors.slice(0, 1)),
    ...variantsWith(noOpAdvisors),
    ...variantsWith(noOpAdvisors, true),
  ];
}

async function sample(variant: Variant): Promise<{ total: number; ttft: number }> {
  const start = performance.now();
  let ttft = Number.NaN;
  for await (const delta of variant.run()) {
    if (Number.isNaN(ttft) && delta !== '') ttft = performance.now() - start;
  }
  return { total: performance.now() - start, ttft };
}

async function measure(label: string, firstTokenDelayMs: number | null, iterations: number) {
  const list = variants(mockModel(firstTokenDelayMs));
  for (let index = 0; index < WARMUP; index++) for (const variant of list) await sample(variant);
  const totals = list.map(() => [] as number[]);
  const ttfts = list.map(() => [] as number[]);
  for (let index = 0; index < iterations; index++) {
    // Interleave so that drift (GC, JIT, other processes) hits every variant alike.
    for (const [position, variant] of list.entries()) {
      const { total, ttft } = await sample(variant);
      totals[position]!.push(total);
      ttfts[position]!.push(ttft);
    }
  }
  const bareTotal = median(totals[0]!);
  const perAdvisor = (oneAdvisor: number, sixAdvisors: number) =>
    ((median(totals[sixAdvisors]!) - median(totals[oneAdvisor]!)) / 5).toFixed(4);
  const bareTtft = median(ttfts[0]!);
  console.log(`\n${label} (${iterations} interleaved calls per variant, medians)`);
  console.table(
    list.map((variant, position) => ({
      variant: variant.name,
      'per call (ms)': median(totals[position]!).toFixed(3),
      'added per call (ms)': (median(totals[position]!) - bareTotal).toFixed(3),
      'TTFT (ms)': median(ttfts[position]!).toFixed(3),
      'TTFT ratio': (median(ttfts[position]!) / bareTtft).toFixed(3),
    })),
  );
  console.log(`one more no-op advisor costs ${perAdvisor(1, 3)} ms (chat client), ${perAdvisor(2, 4)} ms (middleware) per call`);
  const tracing = (untraced: number, traced: number) => (median(totals[traced]!) - median(totals[untraced]!)).toFixed(3);
  console.log(
    `tracing on adds ${tracing(3, 5)} ms (chat client), ${tracing(4, 6)} ms (middleware) per call (a span per hook and per turn, not exported)`,
  );
}

// Traced variants record their spans on a real SDK tracer provider that exports nothing: the cost of the spans themselves.
trace.setGlobalTracerProvider(new BasicTracerProvider());
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

printMachineFacts();
await measure('Zero-latency mock model: pure overhead', null, ITERATIONS);
await measure('Mock model with 20 ms to first token', 20, Math.min(ITERATIONS, 150));
console.log('\nTargets: <= 0.1 ms added per call with 6 advisors; TTFT ratio <= 1.05.');
