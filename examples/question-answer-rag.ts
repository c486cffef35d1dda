/**
 * Question-answer RAG over a small document set: load Markdown files, split
 * them into chunks, index them, and let the question-answer advisor retrieve
 * and inject the best chunks for each question.
 *
 *   npx tsx examples/question-answer-rag.ts
 *
 * With OPENAI_API_KEY the chunks are embedded (text-embedding-3-small) into the
 * in-memory vector store; offline they go into a BM25 index. In your own
 * project, import from 'ai-advisors' instead of '../src'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createChatClient } from '../src/index.ts';
import { questionAnswerAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { printTurn } from './print-turn.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string[]> {
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  const documents = await loadSampleDocuments();
  const { retriever, kind } = await createSampleRetriever({ documents, embeddingModel });
  write(`Model: ${label}\nIndexed ${documents.length} chunks in a ${kind}.\n`);

  const chat = createChatClient({
    model,
    advisors: [
      questionAnswerAdvisor({
        retriever,
        topK: 2,
        // When nothing relevant is found, answer with a fixed sentence instead of calling the model.
        noContext: 'skip',
        noContextAnswer: 'The documents say nothing about that.',
      }),
    ],
  });

  const answers: string[] = [];
  // `ragFilter` (Spring AI filter syntax, or an expression from the filter builder)
  // narrows the search for one call; here the second question searches the terms of use only.
  const questions: { prompt: string; context?: Record<string, string> }[] = [
    { prompt: 'Where did Helena Marsh study?' },
    { prompt: 'How much does the Plus plan cost?', context: { ragFilter: "source == 'termsOfUse'" } },
    { prompt: 'What is the capital of Peru?' },
  ];
  for (const { prompt, context } of questions) {
    write(`\nYou: ${prompt}${context === undefined ? '' : `   (context: ${JSON.stringify(context)})`}\n`);
    answers.push(await printTurn(chat.stream({ prompt, context }), write));
  }
  return answers;
}

if (isEntryPoint(import.meta.url)) await main();
