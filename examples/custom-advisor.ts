/**
 * Stacking your own advisors with built-in ones.
 *
 *   npx tsx examples/custom-advisor.ts
 *
 * An advisor is a plain object: a name, an order (lower runs first on the way
 * in and last on the way out) and hooks. Two custom ones here:
 * - `todayAdvisor` adds today's date to the instructions, so that a model can
 *   turn "born in 1957" into an age;
 * - `answerStatsAdvisor` records the answer's length in the response metadata.
 * In your own project, import from 'ai-advisors' instead of '../src'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { type Advisor, createChatClient } from '../src/index.ts';
import { createChatMemory } from '../src/memory/index.ts';
import { messageMemoryAdvisor, questionAnswerAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';

/** Adds the date to the system instructions of every turn. */
export function todayAdvisor(today: Date = new Date()): Advisor {
  const line = `Today is ${today.toISOString().slice(0, 10)}.`;
  return {
    name: 'today',
    order: -200, // outside memory (-100) and RAG (0): the instructions are ready before they run.
    before: (request) => ({ ...request, instructions: request.instructions ? `${request.instructions}\n${line}` : line }),
  };
}

/** Counts the answer's words and sources once the turn has ended (also when it failed or was aborted). */
export function answerStatsAdvisor(): Advisor {
  return {
    name: 'answer-stats',
    order: 100, // innermost: on the way out it sees the response first.
    after(response) {
      response.context.annotate('answer-stats', {
        words: response.text.split(/\s+/).filter(Boolean).length,
        sources: response.sources.length,
        outcome: response.outcome,
      });
      return response;
    },
  };
}

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<Record<string, unknown>> {
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  const { retriever } = await createSampleRetriever({ documents: await loadSampleDocuments(['biography']), embeddingModel });
  const chat = createChatClient({
    model,
    advisors: [
      answerStatsAdvisor(),
      questionAnswerAdvisor({ retriever, topK: 2 }),
      messageMemoryAdvisor({ memory: createChatMemory() }),
      todayAdvisor(),
    ],
  });
  // Registration order does not matter: the chain runs by `order`.
  write(
    `Model: ${label}\nChain (outermost first): ${chat.chain.advisors.map((advisor) => `${advisor.name} (${advisor.order ?? 0})`).join(' → ')}\n`,
  );

  const question = 'When was Helena Marsh born?';
  write(`\nYou: ${question}\nAssistant: `);
  const result = chat.stream({ prompt: question, context: { conversationId: 'custom' } });
  for await (const text of result.textStream) write(text);
  const { metadata, request } = await result.response;
  write(`\nInstructions the model saw: ${JSON.stringify(request.instructions)}\n`);
  write(`answer-stats metadata: ${JSON.stringify(metadata['answer-stats'])}\n`);
  return metadata['answer-stats'] ?? {};
}

if (isEntryPoint(import.meta.url)) await main();
