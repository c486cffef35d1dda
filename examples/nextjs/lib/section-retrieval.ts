import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmbeddingModel } from 'ai';
import type { Document, Retriever } from 'ai-advisors';
import { rerankRagAdvisor, type RagAdvisor } from 'ai-advisors/advisors';
import { createRecursiveCharacterSplitter, ingest } from 'ai-advisors/ingestion';
import {
  createBm25Retriever,
  createDocument,
  createEnglishAnalyzer,
  createInMemoryVectorStore,
  createRerankingModelReranker,
  ENGLISH_STOP_WORDS,
  createVectorStoreRetriever,
} from 'ai-advisors/retrieval';
import { createTermCoverageRerankingModel, QUESTION_WORDS } from '../../term-coverage-reranking-model.ts';

/** The sample documents shared with the terminal examples (`examples/data`). */
const DATA_FILES = [
  { file: 'helena-marsh-biography.md', source: 'biography' },
  { file: 'brightwater-terms-of-use.md', source: 'termsOfUse' },
];

/**
 * The app's rerank RAG over the sample documents, one document per Markdown section
 * (titled "Document › Section", id `<source>#<section>`), split into chunks of
 * at most 400 characters. The reranker reads each chunk with its title: a
 * passage of the Refunds section rarely says "Brightwater Notes", and the
 * Career section never says "Helena Marsh", yet both are what such questions
 * ask for.
 */
export async function createSectionRagAdvisor({
  dataDirectory,
  embeddingModel,
}: {
  dataDirectory: string;
  embeddingModel?: EmbeddingModel;
}): Promise<RagAdvisor> {
  const documents = await loadSections(dataDirectory);
  const analyze = createEnglishAnalyzer({ stopWords: [...ENGLISH_STOP_WORDS, ...QUESTION_WORDS] });
  const reranker = createRerankingModelReranker({
    name: 'term-coverage',
    model: createTermCoverageRerankingModel({ analyze }),
    documentText: (document) => `${String(document.metadata.title)}\n\n${document.text}`,
  });
  const retriever = await indexDocuments(documents, embeddingModel);
  return rerankRagAdvisor({ retriever, reranker, candidateK: 10, topK: 3, minScore: 0.5, noContext: 'answer-anyway' });
}

async function loadSections(dataDirectory: string): Promise<Document[]> {
  const sections = await Promise.all(
    DATA_FILES.map(async ({ file, source }) => {
      const markdown = await readFile(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ dataDirectory, file), 'utf8');
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

async function indexDocuments(documents: readonly Document[], embeddingModel: EmbeddingModel | undefined): Promise<Retriever> {
  if (embeddingModel === undefined) return createBm25Retriever({ name: 'bm25', documents });
  const store = createInMemoryVectorStore({ name: 'vectors', embeddingModel });
  await ingest({ documents, embeddingModel, store });
  return createVectorStoreRetriever({ store });
}
