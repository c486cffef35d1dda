import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { collectSnippets, type Snippet } from './snippets.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORK = path.join(ROOT, '.snippets');

/** The modules whose exports a snippet may use without importing them, first name wins. */
const AMBIENT_MODULES = [
  'ai-advisors',
  'ai-advisors/advisors',
  'ai-advisors/memory',
  'ai-advisors/retrieval',
  'ai-advisors/filter',
  'ai-advisors/ingestion',
  'ai-advisors/evaluation',
  'ai-advisors/extension',
  'ai-advisors/offline',
  'ai-advisors/loaders',
  'ai-advisors/qdrant',
  'ai-advisors/redis',
  'ai-advisors/postgres',
  'ai-advisors/pgvector',
  'ai-advisors/cohere',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/react',
];

/**
 * What a snippet may take as given, as its page does ("with your model", "the memory from above"): the things an app
 * has, typed as the library's and the AI SDK's types.
 */
const GIVEN = `
  const model: import('@ai-sdk/provider').LanguageModelV4;
  const embeddingModel: import('@ai-sdk/provider').EmbeddingModelV4;
  const memory: import('ai-advisors').ChatMemory;
  const store: import('ai-advisors/retrieval').InMemoryVectorStore;
  const memoryStore: import('ai-advisors').ChatMemoryStore;
  const retriever: import('ai-advisors').Retriever;
  const vectorStore: import('ai-advisors').VectorStore;
  const reranker: import('ai-advisors').Reranker;
  const chat: import('ai-advisors').ChatClient;
  const tools: import('ai').ToolSet;
  const messages: import('ai').UIMessage[];
  const modelMessages: import('ai').ModelMessage[];
  const documents: import('ai-advisors').Document[];
  const id: string;
  const conversationId: string;
  const prompt: string;
  const request: Request;
  const pool: import('pg').Pool;
  const redisClient: import('ai-advisors/redis').AnyRedisClient;
  const part: { toolCallId: string; approval: { id: string } };
  const tenantId: string;
  const query: string;
  const corpus: import('ai-advisors').Document[];
  const doc: import('ai-advisors').Document;
  const vectorHit: import('ai-advisors').Document;
  const bm25Hit: import('ai-advisors').Document;
  const vectorHits: import('ai-advisors').Document[];
  const bm25Hits: import('ai-advisors').Document[];
  const vectorHits1: import('ai-advisors').Document[];
  const bm25Hits1: import('ai-advisors').Document[];
  const vectorHits2: import('ai-advisors').Document[];
  const bm25Hits2: import('ai-advisors').Document[];
  const candidates: import('ai-advisors').Document[];
  const paths: string[];
  const response: Response;
  const rag: import('ai-advisors').Advisor;
  const logging: import('ai-advisors').Advisor;
  const manifest: import('ai-advisors/ingestion').IngestionManifest;
  const auditLog: { write(...values: unknown[]): void };
  const vectorRetriever: import('ai-advisors').Retriever;
  const bm25Retriever: import('ai-advisors').Retriever;
  const bm25: import('ai-advisors').Retriever;
  const manuals: import('ai-advisors').Retriever;
  const billing: import('ai-advisors').Retriever;
  const tickets: import('ai-advisors').Retriever;
  const docs: import('ai-advisors').Retriever;
  const faq: import('ai-advisors').Retriever;
  const retrievers: import('ai-advisors').Retriever[];
  const routes: import('ai-advisors/advisors').RouteDescription[];
  const fused: import('ai-advisors').Document[];
  const metadata: Record<string, unknown>;
  const TenantId: import('ai-advisors').ContextKey<string>;
  const UserRole: import('ai-advisors').ContextKey<string>;
  const deleteFile: import('ai').Tool;
  const weather: import('ai').Tool;
  type Advisor = import('ai-advisors').Advisor;
  type AdvisedRequest = import('ai-advisors').AdvisedRequest;
  type AdvisedResponse = import('ai-advisors').AdvisedResponse;
  type Document = import('ai-advisors').Document;
  type Retriever = import('ai-advisors').Retriever;
  const cohere: { reranking(modelId: string): import('@ai-sdk/provider').RerankingModelV4 };
  function auth(): Promise<{ user: { id: string } } | null>;
  function render(value: unknown): void;
  const z: typeof import('zod').z;
`;

/** Packages a page shows but this repository does not install, as far as the pages use them. */
const ABSENT_PACKAGES = `declare module '@vercel/otel' {
  export function registerOTel(options: { serviceName: string }): void;
}
declare module 'next/server' {
  export function after(task: Promise<unknown> | (() => unknown)): void;
}
`;

/** What a page imports from the reader's own code (`./my-store.ts`), typed as the page describes it. */
const READERS_MODULES: Record<string, string> = {
  'today-advisor.ts': `import type { Advisor } from 'ai-advisors';
export declare function todayAdvisor(today?: () => Date): Advisor;
`,
  'my-store.ts': `import type { EmbeddingModel } from 'ai';
import type { VectorStore } from 'ai-advisors';
import type { SettlingChatMemoryStore } from 'ai-advisors/memory';
export declare function createMyVectorStore(options: { embeddingModel: EmbeddingModel; dimensions: number }): VectorStore;
export declare function createMyChatMemoryStore(options: { url?: string }): SettlingChatMemoryStore;
`,
};

async function ambientDeclarations(): Promise<string> {
  const declared = new Set(GIVEN.match(/(?<=(?:const|function) )\w+/g));
  const lines: string[] = [];
  for (const specifier of AMBIENT_MODULES) {
    const namespace = (await import(specifier)) as Record<string, unknown>;
    for (const name of Object.keys(namespace).sort()) {
      if (declared.has(name) || name === 'default' || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
      declared.add(name);
      lines.push(`  const ${name}: typeof import('${specifier}').${name};`);
    }
  }
  return `export {};\ndeclare global {\n${GIVEN}\n${lines.join('\n')}\n}\n`;
}

function fileOf(snippet: Snippet, index: number): string {
  return `${String(index).padStart(4, '0')}.${snippet.language}`;
}

function runTsc(project: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', project, '--pretty', 'false'], { cwd: ROOT }, (_, stdout) =>
      resolve(stdout),
    );
  });
}

it('every TypeScript block of the README, CONTRIBUTING and docs, and every @example, type-checks', async () => {
  const snippets = await collectSnippets(ROOT);
  await rm(WORK, { recursive: true, force: true });
  await mkdir(WORK, { recursive: true });
  await writeFile(path.join(WORK, 'globals.d.ts'), await ambientDeclarations());
  await writeFile(path.join(WORK, 'absent-packages.d.ts'), ABSENT_PACKAGES);
  for (const [file, source] of Object.entries(READERS_MODULES)) await writeFile(path.join(WORK, file), source);
  await writeFile(
    path.join(WORK, 'tsconfig.json'),
    JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: { noUnusedLocals: false, jsx: 'react-jsx', types: ['node', 'react'] },
      include: ['*.ts', '*.tsx'],
    }),
  );
  // A module each, so that two snippets' names never meet.
  await Promise.all(snippets.map((snippet, index) => writeFile(path.join(WORK, fileOf(snippet, index)), `${snippet.code}\nexport {};\n`)));

  const output = await runTsc(path.join(WORK, 'tsconfig.json'));
  const errors = output
    .split('\n')
    .filter((line) => line.startsWith('.snippets/') || line.includes(`${path.sep}.snippets${path.sep}`))
    .map((line) => {
      const match = /(\d{4})\.tsx?\((\d+),\d+\): (.*)$/.exec(line);
      if (match === null) return line;
      const snippet = snippets[Number(match[1])];
      return `${snippet.file}:${snippet.line + Number(match[2]) - 1}: ${match[3]}`;
    });

  const pages = snippets.filter((snippet) => snippet.file.endsWith('.md')).length;
  console.info(`snippets: ${snippets.length} type-checked (${pages} code blocks of pages, ${snippets.length - pages} @examples)`);
  expect(errors).toEqual([]);
  expect(output.trim()).toBe('');
  await rm(WORK, { recursive: true, force: true });
}, 120_000);
