/**
 * Runs one hostile-document case in a process of its own, so that an
 * out-of-memory or a hang kills this process and not the test runner, and
 * prints its outcome, the time of the library call and the peak RSS:
 *
 *   node --max-old-space-size=256 test/hostile-documents/run-hostile-case.ts pdf-200k-pages
 *
 * HOSTILE_SRC=<folder> runs the case against another copy of the sources (an
 * older commit's `src/`), to see how that copy failed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Ingestion from '../../src/ingestion/index.ts';
import type * as Loaders from '../../src/loaders/index.ts';
import type * as Retrieval from '../../src/retrieval/index.ts';
import { docxBomb, rawPdf } from './hostile-inputs.ts';

const source = process.env.HOSTILE_SRC
  ? pathToFileURL(`${resolve(process.env.HOSTILE_SRC)}/`).href
  : new URL('../../src/', import.meta.url).href;
const loaders = (await import(`${source}loaders/index.ts`)) as typeof Loaders;
const ingestion = (await import(`${source}ingestion/index.ts`)) as typeof Ingestion;
const retrieval = (await import(`${source}retrieval/index.ts`)) as typeof Retrieval;

const MiB = 1024 * 1024;

/** Prepares a case's input, and returns the call under test. */
type HostileCase = () => Promise<() => Promise<unknown>>;

async function tempFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'ai-advisors-hostile-'));
}

function upload(data: string | Uint8Array, name: string) {
  return { data, name };
}

/** What a call ended with, as plain data: its error's class, limit and typing, or nothing. */
async function settle(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
    return 'resolved';
  } catch (error) {
    return describeError(error);
  }
}

function describeError(error: unknown) {
  const fields = error as { name?: string; limit?: string; message?: string };
  return {
    name: fields.name,
    limit: fields.limit,
    typed: (error as Record<symbol, unknown>)?.[Symbol.for('ai-advisors.error.AdvisorError')] === true,
    message: String(fields.message).slice(0, 200),
  };
}

const embeddingModel = {
  specificationVersion: 'v4',
  provider: 'hostile',
  modelId: 'counting',
  maxEmbeddingsPerCall: 100_000,
  supportsParallelCalls: true,
  doEmbed: async ({ values }: { values: string[] }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }),
} as never;

const cases: Record<string, HostileCase> = {
  'text-fifo': async () => {
    const fifo = join(await tempFolder(), 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    return () => loaders.loadText(fifo, { abortSignal: AbortSignal.timeout(2000) });
  },
  'text-dev-zero': async () => () => loaders.loadText('/dev/zero'),
  'raw-file-errors': async () => {
    const folder = await tempFolder();
    const small = join(folder, 'small.txt');
    await writeFile(small, 'small');
    const huge = join(folder, 'huge.txt');
    // A sparse 3 GB file: over the default maxBytes, and over what readFile accepts.
    await (await open(huge, 'w')).truncate(3 * 1024 * MiB);
    return async () => ({
      missing: await settle(() => loaders.loadText(join(folder, 'missing.txt'))),
      directory: await settle(() => loaders.loadText(folder)),
      fileUrlString: await settle(() => loaders.loadText(pathToFileURL(small).href)),
      huge: await settle(() => loaders.loadText(huge)),
    });
  },
  'docx-bomb': async () => {
    const bytes = await docxBomb({ textBytes: 300 * MiB });
    return () => loaders.loadDocx(upload(bytes, `bomb-${(bytes.length / 1024).toFixed(0)}KB.docx`));
  },
  'docx-lying-bomb': async () => {
    const bytes = await docxBomb({ textBytes: 300 * MiB, declaredSize: 1000 });
    return () => loaders.loadDocx(upload(bytes, 'lying-bomb.docx'));
  },
  'pdf-200k-pages': async () => {
    const bytes = await rawPdf({ pageCount: 200_000, text: 'The same page again' });
    return () => loaders.loadPdf(upload(bytes, `pages-${(bytes.length / MiB).toFixed(1)}MB.pdf`));
  },
  'pdf-stream-bomb': async () => {
    const bytes = await rawPdf({ pageCount: 1, text: 'Hello', padding: 300 * MiB });
    return () => loaders.loadPdf(upload(bytes, 'stream-bomb.pdf'));
  },
  'pdf-abort': async () => {
    const bytes = await rawPdf({ pageCount: 4000, text: 'A long report' });
    return async () => {
      const started = performance.now();
      const outcome = await settle(() => loaders.loadPdf(upload(bytes, 'report.pdf'), { abortSignal: AbortSignal.timeout(300) }));
      return { outcome, settledAfterMs: Math.round(performance.now() - started) };
    };
  },
  'markdown-nested-lists': async () => {
    // 10,000 levels on one line (20 KB); 1,000 levels by indentation (1 MB).
    const markers = `${'- '.repeat(10_000)}item`;
    const indented = Array.from({ length: 1000 }, (_, level) => `${'  '.repeat(level)}- item`).join('\n');
    return async () => ({
      markers: await settle(() => loaders.loadMarkdown(upload(markers, 'markers.md'))),
      indented: await settle(() => loaders.loadMarkdown(upload(indented, 'indented.md'))),
    });
  },
  'markdown-nested-quotes': async () => () => loaders.loadMarkdown(upload(`${'>'.repeat(10_000)} deep`, 'quotes.md')),
  'markdown-quadratic-emphasis': async () => {
    const text = `# Emphasis\n\n${'*a _'.repeat(20_000)}`;
    return async () => (await loaders.loadMarkdown(upload(text, 'emphasis.md')))[0].metadata.headings;
  },
  'markdown-10mb-paragraph': async () => {
    const line = `# Intro\n\n${'word '.repeat(2 * MiB)}\n\n# End\n`;
    const lines = `# Intro\n\n${'word\n'.repeat(2 * MiB)}\n# End\n`;
    return async () => ({
      oneLine: (await loaders.loadMarkdown(upload(line, 'line.md')))[0].metadata.headings,
      manyLines: (await loaders.loadMarkdown(upload(lines, 'lines.md')))[0].metadata.headings,
    });
  },
  'html-nested-divs': async () => () => loaders.loadHtml(upload(`${'<div>'.repeat(10_000)}deep${'</div>'.repeat(10_000)}`, 'divs.html')),
  'html-over-16mib': async () => {
    const html = `<html><body>${'<p>Filler paragraph of a long page.</p>\n'.repeat(450_000)}<p>THE END</p></body></html>`;
    return async () => {
      const [page] = await loaders.loadHtml(upload(html, `long-${(html.length / MiB).toFixed(1)}MiB.html`));
      return { endsWithTheEnd: page.text.endsWith('THE END'), metadata: page.metadata };
    };
  },
  'html-50mb-attribute': async () => {
    const html = `<p title="${'a'.repeat(50 * 1000 * 1000)}">after the attribute</p>`;
    return async () => (await loaders.loadHtml(upload(html, 'attribute.html')))[0].text;
  },
  'splitter-20mb-line': async () => {
    const text = 'x'.repeat(20 * 1000 * 1000);
    return async () => ingestion.createRecursiveCharacterSplitter({ chunkSize: 1000, chunkOverlap: 100 }).splitText(text).length;
  },
  'ingest-300k-chunks': async () => {
    // One chunk per word: "abcdefg", then " abcdefg" with its space trimmed.
    const text = 'abcdefg '.repeat(300_000);
    const splitter = ingestion.createRecursiveCharacterSplitter({ chunkSize: 8 });
    return async () => {
      const store = retrieval.createInMemoryVectorStore({ embeddingModel });
      const manifest = ingestion.createInMemoryIngestionManifest();
      const options = { splitter, embeddingModel, store, manifest, batchSize: 4096 };
      const document = { id: 'huge', text, metadata: {} };
      return {
        byDefault: await settle(() => ingestion.ingest({ ...options, documents: [document] })),
        raised: await ingestion
          .ingest({ ...options, documents: [document], maxChunksPerDocument: 300_000 })
          .then(({ chunks, added }) => ({ chunks, added }), describeError),
        shrunk: await ingestion
          .ingest({ ...options, documents: [{ ...document, text: 'abcdefg' }] })
          .then(({ chunks, deleted }) => ({ chunks, deleted }), describeError),
      };
    };
  },
};

const name = process.argv[2];
const prepare = cases[name];
if (prepare === undefined) throw new Error(`unknown case "${name}"; cases: ${Object.keys(cases).join(', ')}`);
const run = await prepare();
const started = performance.now();
let outcome: unknown;
try {
  outcome = { value: await run() };
} catch (error) {
  outcome = { error: describeError(error) };
}
const ms = Math.round(performance.now() - started);
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(`HOSTILE_RESULT ${JSON.stringify({ ...(outcome as object), ms, peakRssMb })}`);
