/**
 * Tokens sent to the model per turn over a 200-turn conversation, with a
 * 4,000-token window alone and with the window plus a running summary
 * (trigger 3,000 tokens, keep 1,200), and each turn's latency. The answering
 * model answers at once; the summary model takes 150 ms, as a small real model
 * would: a turn must not wait for it (its latency is measured without the
 * summary work, which finishes between turns, as while the user reads). Token
 * counts are the GPT tokenizer's count of the prompt the answering model received.
 *
 * Run: npx tsx bench/summary-memory.ts   (TURNS=200 to change the length)
 */
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { messageMemoryAdvisor } from '../advisors/index.ts';
import { createChatClient } from '../src/index.ts';
import { countMessageTokens, createChatMemory, createGptTokenizer, createTokenWindow } from '../src/memory/index.ts';
import { mockModel, textParts, usage } from '../test/helpers/mock-models.ts';
import { printMachineFacts } from './machine-facts.ts';
import { median, quantile } from './statistics.ts';

const TURNS = Number(process.env.TURNS ?? 200);
const tokenizer = createGptTokenizer();
await tokenizer.load?.();

const topics = ['the trip to Oslo', 'the budget for the kitchen', 'a birthday present for Ana', 'the garden', 'the new job'];
const question = (turn: number) =>
  `Turn ${turn}: about ${topics[turn % topics.length]}, ${'here are more details that I want you to keep in mind for later, '.repeat(4)}what do you think?`;

const summaryModel = new MockLanguageModelV4({
  doGenerate: async ({ prompt }: LanguageModelV4CallOptions) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const text = JSON.stringify(prompt);
    const first = /turns (\d+) to/.exec(text)?.[1] ?? /Turn (\d+)/.exec(text)?.[1];
    const last = [...text.matchAll(/Turn (\d+)/g)].at(-1)?.[1];
    return {
      content: [{ type: 'text', text: `The user discussed turns ${first} to ${last}: ${topics.join(', ')}.` }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    };
  },
});

async function run(withSummary: boolean) {
  const pending: Promise<void>[] = [];
  const memory = createChatMemory({
    window: createTokenWindow({ maxTokens: 4_000 }),
    ...(withSummary && {
      summary: { model: summaryModel, triggerTokens: 3_000, keepTokens: 1_200, schedule: (work: Promise<void>) => void pending.push(work) },
    }),
  });
  const model = mockModel([textParts(['That sounds like a good plan; tell me more when you know.'])]);
  const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory })] });
  const tokens: number[] = [];
  const summaryCallsBefore = summaryModel.doGenerateCalls.length;
  const latencies: number[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    const started = performance.now();
    await chat.generate({ prompt: question(turn), context: { conversationId: 'bench' } });
    latencies.push(performance.now() - started);
    // The user reads the answer before asking again: the summary work scheduled after the turn finishes meanwhile.
    await Promise.all(pending.splice(0));
    const call = model.doGenerateCalls.at(-1)!;
    tokens.push(call.prompt.reduce((sum, message) => sum + countMessageTokens(message as never, tokenizer), 0));
  }
  const coversEarlyTurns = JSON.stringify(model.doGenerateCalls.at(-1)!.prompt).includes('turns 1 to');
  return {
    memory: withSummary ? 'window + summary' : 'window only',
    'mean tokens/turn': Math.round(tokens.reduce((a, b) => a + b, 0) / tokens.length),
    'tokens, last turn': tokens.at(-1),
    'turn p50 ms': median(latencies).toFixed(2),
    'turn p95 ms': quantile(latencies, 0.95).toFixed(2),
    'summary calls': summaryModel.doGenerateCalls.length - summaryCallsBefore,
    'last prompt recalls turn 1': coversEarlyTurns,
  };
}

printMachineFacts();
const rows = [];
for (let round = 0; round < 2; round++) for (const withSummary of [false, true]) rows.push(await run(withSummary));
console.table(rows);
