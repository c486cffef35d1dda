/**
 * Advanced (modular) RAG: the follow-up question is first compressed into a
 * standalone query using the conversation, then a language model routes it to
 * the source that can answer it: a biography or a company's terms of use.
 *
 *   npx tsx examples/advanced-rag.ts
 *
 * The trace printed under each answer shows every stage: the compressed query,
 * the route, the hits per source. In your own project, import from 'ai-advisors'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { createTextModel } from '../src/offline/index.ts';
import { createChatClient } from '../src/index.ts';
import { createChatMemory } from '../src/memory/index.ts';
import { createEnglishAnalyzer, ENGLISH_STOP_WORDS } from '../src/retrieval/index.ts';
import {
  createCompressionQueryTransformer,
  createLanguageModelRouter,
  messageMemoryAdvisor,
  retrievalAugmentationAdvisor,
} from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { printTurn } from './print-turn.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';
import { QUESTION_WORDS } from './term-coverage-reranking-model.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string[]> {
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  // Query compression and routing are small language-model calls. Offline, a scripted
  // stand-in answers them (see below); with OPENAI_API_KEY the real model does.
  const helperModel = embeddingModel === undefined ? offlineHelperModel() : model;
  write(`Model: ${label}\n`);

  // Two sources, each its own retriever.
  const biography = await createSampleRetriever({ name: 'biography', documents: await loadSampleDocuments(['biography']), embeddingModel });
  const terms = await createSampleRetriever({ name: 'terms-of-use', documents: await loadSampleDocuments(['termsOfUse']), embeddingModel });

  const chat = createChatClient({
    model,
    advisors: [
      // Memory provides the history that the compression transformer reads.
      messageMemoryAdvisor({ memory: createChatMemory() }),
      retrievalAugmentationAdvisor({
        queryTransformers: [createCompressionQueryTransformer({ model: helperModel })],
        router: createLanguageModelRouter({
          model: helperModel,
          routes: [
            {
              retriever: biography.retriever,
              description: 'Biography of Helena Marsh, marine cartographer: her life, age, family, career and home',
            },
            {
              retriever: terms.retriever,
              description: 'Brightwater Notes terms of use: accounts, plans, prices, billing, refunds, money back, data deletion',
            },
          ],
          // If the router's answer is unusable, search both sources rather than none.
          fallback: 'routeToAll',
        }),
        // Each source recalls ten candidates, fused by RRF; the best two are injected.
        candidateK: 10,
        topK: 2,
      }),
    ],
  });

  const answers: string[] = [];
  for (const question of ['Who is Helena Marsh?', 'Where does she live now?', 'Can I get my money back on an annual plan?']) {
    write(`\nYou: ${question}\n`);
    answers.push(await printTurn(chat.stream({ prompt: question, context: { conversationId: 'advanced' } }), write));
  }
  return answers;
}

/**
 * A scripted stand-in for the two helper prompts of this example, so that it
 * runs offline: the router's (answer the numbers of the sources whose
 * description shares a topic word with the query) and the compression
 * transformer's (replace a pronoun with the last full name the user wrote).
 */
function offlineHelperModel(): LanguageModel {
  const analyze = createEnglishAnalyzer({ stopWords: [...ENGLISH_STOP_WORDS, ...QUESTION_WORDS] });
  const answer = ({ prompt }: LanguageModelV4CallOptions): string => {
    const text = prompt
      .flatMap((message) => (message.role === 'user' ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])) : []))
      .join('\n');
    const routing = /^Sources:\n([\s\S]*?)\n\nQuery: (.*)$/m.exec(text);
    if (routing !== null) {
      const queryWords = new Set(analyze(routing[2]));
      const chosen = routing[1].split('\n').flatMap((line) => {
        const [number, description] = line.split(/:\s(.*)/s);
        return analyze(description ?? '').some((word) => queryWords.has(word)) ? [number] : [];
      });
      return chosen.length === 0 ? 'none' : chosen.join(', ');
    }
    const compression = /^Conversation:\n([\s\S]*?)\n\nLatest user message: (.*)\n/m.exec(text);
    if (compression !== null) {
      const userLines = compression[1]
        .split('\n')
        .filter((line) => line.startsWith('User: '))
        .join('\n');
      const name = [...userLines.matchAll(/\b\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)+/gu)].at(-1)?.[0];
      return name === undefined ? compression[2] : compression[2].replace(/\b(she|he|her|him|they|them)\b/i, name);
    }
    return '';
  };
  return createTextModel({ provider: 'offline', modelId: 'helper-stand-in', answer });
}

if (isEntryPoint(import.meta.url)) await main();
