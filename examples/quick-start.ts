/**
 * Quick start: a chat client with one advisor, streaming an answer.
 *
 *   npx tsx examples/quick-start.ts
 *
 * Answers with OpenAI when OPENAI_API_KEY (or OPENAI_BASE_URL) is set, otherwise
 * with the offline stand-in model, which quotes the passages it is given.
 * In your own project, import from 'ai-advisors' instead of '../src'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createBm25Retriever, createDocument } from '../src/retrieval/index.ts';
import { createChatClient } from '../src/index.ts';
import { questionAnswerAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string> {
  // 1. A model. Any AI SDK language model works, e.g. openai('gpt-4o-mini').
  const { model, label } = resolveDemoModel({ env, createOpenAI });
  write(`Model: ${label}\n`);

  // 2. Something to answer from: three short documents in a BM25 (keyword) index.
  const retriever = createBm25Retriever({
    documents: [
      createDocument({
        text: 'The research vessel Kittiwake is based in Aberdeen and carries a crew of twelve.',
        metadata: { title: 'Fleet list' },
      }),
      createDocument({ text: 'The survey launch Tern is a nine-metre boat with a crew of three.', metadata: { title: 'Fleet list' } }),
      createDocument({ text: 'Survey data is published every spring as a set of tidal atlases.', metadata: { title: 'Publications' } }),
    ],
  });

  // 3. A chat client: the question-answer advisor retrieves the best passages for
  //    each question and injects them into the prompt before the model is called.
  const chat = createChatClient({ model, advisors: [questionAnswerAdvisor({ retriever, topK: 2 })] });

  // 4. Stream the answer as it arrives, then list the sources it was given.
  const question = 'Where is the Kittiwake based?';
  write(`You: ${question}\nAssistant: `);
  const result = chat.stream({ prompt: question });
  for await (const text of result.textStream) write(text);
  write('\n');
  for (const source of await result.sources) write(`  source: ${String(source.metadata.title)}: ${source.text}\n`);
  return result.text;
}

if (isEntryPoint(import.meta.url)) await main();
