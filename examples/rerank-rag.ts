/**
 * Rerank RAG: recall many candidates cheaply, then let a reranker pick the few
 * that really answer the question.
 *
 *   COHERE_API_KEY=... npx tsx examples/rerank-rag.ts   # Cohere rerank-v3.5
 *   npx tsx examples/rerank-rag.ts                      # a local reranker, no network
 *
 * If the reranker fails or times out, the advisor keeps the retrieval order and
 * says so in its trace. In your own project, import from 'ai-advisors' (and the
 * Cohere reranker from 'ai-advisors/cohere').
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createChatClient, type Reranker } from '../src/index.ts';
import { rerankRagAdvisor } from '../advisors/index.ts';
import { createCohereReranker } from '../src/cohere/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { createLocalReranker } from './demo-reranker.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { printTurn } from './print-turn.ts';
import { loadSampleDocuments } from './sample-documents.ts';
import { createSampleRetriever } from './sample-retriever.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string[]> {
  const { model, embeddingModel, label } = resolveDemoModel({ env, createOpenAI });
  const cohereKey = env.COHERE_API_KEY ?? env.CO_API_KEY;
  const reranker: Reranker = cohereKey ? createCohereReranker({ apiKey: cohereKey, model: 'rerank-v3.5' }) : createLocalReranker();
  write(`Model: ${label}\nReranker: ${reranker.name}${cohereKey ? '' : ' (local stand-in; set COHERE_API_KEY for Cohere)'}\n`);

  const documents = await loadSampleDocuments();
  const { retriever } = await createSampleRetriever({ documents, embeddingModel });
  const chat = createChatClient({
    model,
    advisors: [
      rerankRagAdvisor({
        retriever,
        reranker,
        candidateK: 10, // wide recall: every chunk that might matter...
        topK: 2, // ...but only the two best reach the model,
        minScore: cohereKey ? 0.1 : 0.5, // and only if the reranker finds them relevant enough.
      }),
    ],
  });

  const answers: string[] = [];
  for (const question of ['Can I get a refund on an annual plan after a month?', 'When did Helena Marsh publish her tidal atlas?']) {
    write(`\nYou: ${question}\n`);
    const result = chat.stream({ prompt: question });
    answers.push(await printTurn(result, write));
    const trace = (await result.metadata)['rerank-rag']?.trace as { rerank?: { scores: { id: string; score?: number }[] } } | undefined;
    for (const { id, score } of trace?.rerank?.scores ?? []) write(`    rerank score ${score?.toFixed(2) ?? '-'}  ${id}\n`);
  }
  return answers;
}

if (isEntryPoint(import.meta.url)) await main();
