/**
 * Adding advisors to existing AI SDK code with `advisorMiddleware`, without
 * changing its `streamText` call sites: wrap the model once, pass per-request
 * values (the conversation id) in `providerOptions.advisors`.
 *
 *   npx tsx examples/advisor-middleware.ts
 *
 * The difference from `createChatClient`: a middleware sees model steps, not
 * turns. It runs the request side of the chain on the first step of a turn and
 * the `after` hooks once, on the last step, so a tool loop is still one turn.
 * Sources arrive as the stream's source parts, but the advisors' metadata and
 * context are not returned to the caller as `createChatClient` returns them.
 * Use `createChatClient` for new code. In your own project, import from 'ai-advisors'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { streamText, wrapLanguageModel } from 'ai';
import { advisorMiddleware } from '../src/index.ts';
import { createChatMemory } from '../src/memory/index.ts';
import { messageMemoryAdvisor, questionAnswerAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string[]> {
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  const { retriever } = await createSampleRetriever({ documents: await loadSampleDocuments(), embeddingModel });

  // Wrap once, use everywhere the model was used before.
  const advisedModel = wrapLanguageModel({
    model,
    middleware: advisorMiddleware([messageMemoryAdvisor({ memory: createChatMemory() }), questionAnswerAdvisor({ retriever, topK: 2 })]),
  });
  write(`Model: ${label}, wrapped with advisorMiddleware\n`);

  const answers: string[] = [];
  for (const prompt of ['Where does Helena Marsh live?', 'Who is she married to?']) {
    write(`\nYou: ${prompt}\nAssistant: `);
    // An unchanged streamText call, plus the conversation id for the memory advisor.
    const result = streamText({ model: advisedModel, prompt, providerOptions: { advisors: { conversationId: 'middleware-demo' } } });
    for await (const text of result.textStream) write(text);
    write('\n');
    for (const source of await result.sources) write(`  source: ${source.sourceType === 'url' ? source.url : source.title}\n`);
    answers.push(await result.text);
  }
  return answers;
}

if (isEntryPoint(import.meta.url)) await main();
