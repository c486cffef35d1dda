/**
 * RAG over Qdrant: ingest the sample documents into a Qdrant collection and
 * answer from it, with a per-call metadata filter evaluated by Qdrant.
 *
 *   docker run -p 6333:6333 qdrant/qdrant
 *   QDRANT_URL=http://localhost:6333 npx tsx examples/qdrant.ts
 *
 * Vectors come from OpenAI's text-embedding-3-small when OPENAI_API_KEY is set,
 * otherwise from a local hashing stand-in. The collection, its payload index and
 * the points are created on the first run; re-running replaces the same points.
 * In your own project, import from 'ai-advisors' and 'ai-advisors/qdrant'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createChatClient } from '../src/index.ts';
import { ingest } from '../src/ingestion/index.ts';
import { questionAnswerAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { createQdrantVectorStore } from '../src/qdrant/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';
import { createHashingEmbeddingModel } from './hashing-embedding-model.ts';
import { printTurn } from './print-turn.ts';
import { loadSampleDocuments } from './sample-documents.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<string[]> {
  const url = env.QDRANT_URL;
  if (!url) {
    write('Set QDRANT_URL (e.g. http://localhost:6333) to run this example against Qdrant.\n');
    return [];
  }
  const { model, embeddingModel = createHashingEmbeddingModel(), label } = resolveDemoModel({ env, createOpenAI });
  const store = createQdrantVectorStore({
    url,
    apiKey: env.QDRANT_API_KEY,
    collection: 'ai_advisors_examples',
    embeddingModel,
    // A keyword index on `source`, so that filters on it stay fast as the collection grows.
    payloadIndexes: { source: 'keyword' },
  });
  const { added } = await ingest({ documents: await loadSampleDocuments(), embeddingModel, store });
  write(`Model: ${label}\nIngested ${added} chunks into Qdrant collection "ai_advisors_examples" at ${url}.\n`);

  const chat = createChatClient({ model, advisors: [questionAnswerAdvisor({ vectorStore: store, topK: 2 })] });
  const answers: string[] = [];
  for (const { prompt, filter } of [
    { prompt: 'How much does the Plus plan cost?', filter: "source == 'termsOfUse'" },
    { prompt: 'Where did Helena Marsh study?', filter: "source == 'biography'" },
  ]) {
    write(`\nYou: ${prompt}   (filter: ${filter})\n`);
    answers.push(await printTurn(chat.stream({ prompt, context: { ragFilter: filter } }), write));
  }
  return answers;
}

if (isEntryPoint(import.meta.url)) await main();
