import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createChatClient, type ChatClient, type Document, type Retriever } from 'ai-advisors';
import { createRecursiveCharacterSplitter, ingest } from 'ai-advisors/ingestion';
import { createChatMemory } from 'ai-advisors/memory';
import {
  createBm25Retriever,
  createDocument,
  createEnglishAnalyzer,
  createInMemoryVectorStore,
  createRerankingModelReranker,
  ENGLISH_STOP_WORDS,
  vectorStoreRetriever,
} from 'ai-advisors/retrieval';
import { messageMemoryAdvisor, metadataPassthroughAdvisor, rerankRagAdvisor } from 'ai-advisors/advisors';
import { resolveDemoModel } from 'ai-advisors/offline';
import { createTermCoverageRerankingModel, QUESTION_WORDS } from '../../term-coverage-reranking-model.ts';

/** The sample documents shared with the terminal examples (`examples/data`). */
const DATA_FILES = [
  { file: 'helena-marsh-biography.md', source: 'biography' },
  { file: 'brightwater-terms-of-use.md', source: 'termsOfUse' },
];

let client: Promise<{ chat: ChatClient; label: string }> | undefined;

/**
 * The app's chat client, built once per server process: memory (in memory here;
 * use the Redis or PostgreSQL store in production), rerank RAG over the sample
 * documents and metadata passthrough. Answers with OpenAI when `OPENAI_API_KEY`
 * or `OPENAI_BASE_URL` is set, otherwise with the offline stand-in model.
 */
export function getChatClient(): Promise<{ chat: ChatClient; label: string }> {
  client ??= buildChatClient();
  return client;
}

async function buildChatClient() {
  const { model, embeddingModel, label } = resolveDemoModel({ env: process.env });
  const documents = await loadSections();
  const retriever = await indexDocuments(documents, embeddingModel);
  const analyze = createEnglishAnalyzer({ stopWords: [...ENGLISH_STOP_WORDS, ...QUESTION_WORDS] });
  const chat = createChatClient({
    model,
    instructions: 'You answer questions about the provided documents. Cite them as [1], [2].',
    advisors: [
      metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }),
      messageMemoryAdvisor({ memory: createChatMemory() }),
      rerankRagAdvisor({
        retriever,
        reranker: createRerankingModelReranker({ name: 'term-coverage', model: createTermCoverageRerankingModel({ analyze }) }),
        candidateK: 10,
        topK: 3,
        minScore: 0.5,
        noContext: 'answer-anyway',
      }),
    ],
  });
  return { chat, label };
}

/** One document per Markdown section, titled "Document › Section", split into chunks of at most 400 characters. */
async function loadSections(): Promise<Document[]> {
  const dataDirectory = path.join(process.cwd(), '..', 'data');
  const sections = await Promise.all(
    DATA_FILES.map(async ({ file, source }) => {
      const markdown = await readFile(path.join(dataDirectory, file), 'utf8');
      const documentTitle = /^# (.+)$/m.exec(markdown)?.[1] ?? file;
      return markdown
        .split(/^(?=## )/m)
        .map((section) => {
          const heading = /^## (.+)$/m.exec(section)?.[1];
          const text = section.replace(/^#+ [^\n]*\n+/, '').trim();
          const title = heading === undefined ? documentTitle : `${documentTitle} › ${heading}`;
          return createDocument({ id: `${source}#${heading ?? 'intro'}`, text, metadata: { title, source, mediaType: 'text/markdown' } });
        })
        .filter((section) => section.text !== '');
    }),
  );
  return createRecursiveCharacterSplitter({ chunkSize: 400 }).split(sections.flat());
}

async function indexDocuments(
  documents: readonly Document[],
  embeddingModel: ReturnType<typeof resolveDemoModel>['embeddingModel'],
): Promise<Retriever> {
  if (embeddingModel === undefined) return createBm25Retriever({ name: 'bm25', documents });
  const store = createInMemoryVectorStore({ name: 'vectors', embeddingModel });
  await ingest({ documents, embeddingModel, store });
  return vectorStoreRetriever({ store });
}
