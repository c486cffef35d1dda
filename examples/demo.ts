/**
 * The demo (`npm run demo`): a scripted conversation over two sample documents
 * (a biography and a company's terms of use) through three advisors, printing
 * the chain and, after each answer, what each advisor did:
 *
 * - metadata passthrough: latency, token usage and sources as response metadata,
 * - message memory: the follow-up "How old is she?" is understood because the
 *   earlier turns are sent with it,
 * - rerank RAG: wide recall, then a reranker keeps only the relevant passages.
 *
 * With `OPENAI_API_KEY` (or `OPENAI_BASE_URL` for an OpenAI-compatible server
 * such as Ollama or llama.cpp) it answers with that model and embeds the
 * documents with `text-embedding-3-small`; without, it runs offline with a
 * clearly labelled stand-in model that quotes the retrieved passages, and BM25
 * retrieval. In your own project, import from 'ai-advisors' instead of '../src'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import cliProgress from 'cli-progress';
import { createChatClient } from '../src/index.ts';
import { createChatMemory } from '../src/memory/index.ts';
import { type IngestProgress } from '../src/ingestion/index.ts';
import { messageMemoryAdvisor, metadataPassthroughAdvisor, rerankRagAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { createLocalReranker } from './demo-reranker.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { describeChain, printTurn } from './print-turn.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';

export const DEMO_QUESTIONS = [
  'Who is Helena Marsh?',
  'How old is she?',
  'What is the refund policy for annual plans?',
  'What happens to my notes when I close my account?',
];

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string[]> {
  const startedAt = performance.now();
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  write(`ai-advisors demo\nModel: ${label}\n`);

  // Ingestion: load and split the sample documents, then index them. A progress
  // bar shows on a terminal (embedding a large corpus takes a while).
  const documents = await loadSampleDocuments();
  const bar = new cliProgress.SingleBar(
    { format: 'Indexing {bar} {value}/{total} chunks ({phase})', hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  bar.start(documents.length, 0, { phase: 'split' });
  const onProgress = ({ phase, done, total }: IngestProgress) =>
    bar.update(phase === 'split' ? 0 : Math.round((done / total) * documents.length), { phase });
  const { retriever, kind } = await createSampleRetriever({ documents, embeddingModel, onProgress });
  bar.stop();
  write(`Indexed ${documents.length} chunks of 2 documents in a ${kind}.\n`);

  const chat = createChatClient({
    model,
    instructions: 'You answer questions about the provided documents. Cite them as [1], [2].',
    advisors: [
      metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }),
      messageMemoryAdvisor({ memory: createChatMemory() }),
      rerankRagAdvisor({
        retriever,
        reranker: createLocalReranker(),
        candidateK: 10,
        topK: 3,
        // Passages sharing less than half of the question's topic words are dropped...
        minScore: 0.5,
        // ...and when none is left (a follow-up like "How old is she?"), the model answers from memory.
        noContext: 'answer-anyway',
      }),
    ],
  });

  write(`Advisor chain, outermost first: ${describeChain(chat.chain)}\n`);
  const answers: string[] = [];
  for (const question of DEMO_QUESTIONS) {
    write(`\nYou: ${question}\n`);
    const result = chat.stream({ prompt: question, context: { conversationId: 'demo-conversation' } });
    answers.push(await printTurn(result, write));
    const turn = (await result.metadata).metadata as { latencyMs?: number; usage?: { totalTokens?: number } } | undefined;
    write(`  ${turn?.latencyMs ?? '?'} ms, ${turn?.usage?.totalTokens ?? '?'} tokens\n`);
  }
  write(`\nDone in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.\n`);
  return answers;
}

if (isEntryPoint(import.meta.url)) await main();
