import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../faults/fault-harness.ts';

const SCRIPT = fileURLToPath(new URL('./run-hostile-case.ts', import.meta.url));

interface Budget {
  /** V8 heap limit of the case's process (`--max-old-space-size`), in MB. */
  readonly heapMb?: number;
  /** Longest the library call may take. */
  readonly maxMs: number;
  /** Highest peak RSS of the case's process (node and the suite's modules alone take about 200 MB). */
  readonly maxRssMb: number;
}

/**
 * Runs a case of `run-hostile-case.ts` in its own process with a heap limit,
 * killed after 30 s: an out-of-memory or a hang fails this test instead of the
 * runner. Prints the call's time and the process's peak RSS.
 */
async function runCase(name: string, { heapMb = 256, maxMs, maxRssMb }: Budget): Promise<unknown> {
  const started = performance.now();
  const exit = await runScenario(SCRIPT, [name], { killAfterMs: 30_000, nodeArgs: [`--max-old-space-size=${heapMb}`] });
  const wallMs = Math.round(performance.now() - started);
  const line = exit.stdout.split('\n').find((text) => text.startsWith('HOSTILE_RESULT '));
  if (line === undefined) {
    throw new Error(`${name}: no result (exit ${exit.code ?? exit.signal} after ${wallMs} ms): ${exit.stderr.slice(-2000)}`);
  }
  const { ms, peakRssMb, ...outcome } = JSON.parse(line.slice('HOSTILE_RESULT '.length));
  console.log(`${name}: ${ms} ms, peak RSS ${peakRssMb} MB (heap limit ${heapMb} MB; process ${wallMs} ms)`);
  expect(ms, `${name} took ${ms} ms`).toBeLessThan(maxMs);
  expect(peakRssMb, `${name} peaked at ${peakRssMb} MB`).toBeLessThan(maxRssMb);
  return outcome;
}

const limitError = (limit: string) => ({ name: 'DocumentLimitError', limit, typed: true });

describe('hostile documents', () => {
  describe('sources', () => {
    it('a FIFO with a 2 s abort signal is refused at once (it used to hang the process for good)', async () => {
      expect(await runCase('text-fifo', { maxMs: 500, maxRssMb: 400 })).toMatchObject({
        error: { name: 'AdvisorArgumentError', typed: true, message: expect.stringMatching(/is a FIFO, not a regular file$/) },
      });
    });

    it('/dev/zero is refused as a device instead of being read without end', async () => {
      expect(await runCase('text-dev-zero', { maxMs: 500, maxRssMb: 400 })).toMatchObject({
        error: { name: 'AdvisorArgumentError', typed: true, message: expect.stringMatching(/is a device, not a regular file$/) },
      });
    });

    it('a missing file, a directory, a file: URL string and a 3 GB file give typed errors naming the source', async () => {
      expect(await runCase('raw-file-errors', { maxMs: 500, maxRssMb: 400 })).toMatchObject({
        value: {
          missing: {
            name: 'ComponentError',
            typed: true,
            message: expect.stringMatching(/^text-loader: open \S+missing.txt failed: ENOENT/),
          },
          directory: { name: 'AdvisorArgumentError', typed: true, message: expect.stringMatching(/is a directory, not a regular file$/) },
          fileUrlString: 'resolved',
          huge: {
            ...limitError('maxBytes'),
            message: expect.stringMatching(/huge.txt" has 3,221,225,472 bytes \(maxBytes: 67,108,864\)$/),
          },
        },
      });
    });
  });

  describe('compressed formats', () => {
    it('a 300 KB DOCX whose document.xml inflates to 300 MB is refused from its zip directory', async () => {
      expect(await runCase('docx-bomb', { maxMs: 1000, maxRssMb: 400 })).toMatchObject({
        error: { ...limitError('maxDecompressedBytes'), message: expect.stringMatching(/declares 314,57\d,\d{3} bytes when inflated/) },
      });
    });

    it('the same DOCX with a zip directory that lies about the size is refused while inflating, output dropped', async () => {
      expect(await runCase('docx-lying-bomb', { maxMs: 3000, maxRssMb: 400 })).toMatchObject({
        error: {
          ...limitError('maxDecompressedBytes'),
          message: expect.stringMatching(/inflates to more bytes than that \(at "word\/document.xml"\)/),
        },
      });
    });

    it('a 1.1 MB PDF listing one page 200,000 times is refused by its page count', async () => {
      expect(await runCase('pdf-200k-pages', { maxMs: 2000, maxRssMb: 400 })).toMatchObject({
        error: { ...limitError('maxPages'), message: expect.stringMatching(/has 200,000 pages \(maxPages: 5,000\)$/) },
      });
    });

    it('a PDF whose content stream inflates to 300 MB is refused before PDF.js inflates it', async () => {
      expect(await runCase('pdf-stream-bomb', { maxMs: 3000, maxRssMb: 400 })).toMatchObject({ error: limitError('maxDecompressedBytes') });
    });

    it('loadPdf stops at its abort signal, between pages or within one', async () => {
      const outcome = (await runCase('pdf-abort', { maxMs: 2000, maxRssMb: 400 })) as { value: { settledAfterMs: number } };
      expect(outcome).toMatchObject({ value: { outcome: { name: 'TimeoutError' } } });
      expect(outcome.value.settledAfterMs).toBeLessThan(1000);
    });
  });

  describe('markup', () => {
    it('10,000 nested Markdown lists (on one line, or 1,000 by indentation) are refused by a linear scan', async () => {
      expect(await runCase('markdown-nested-lists', { maxMs: 1000, maxRssMb: 400 })).toMatchObject({
        value: { markers: limitError('maxNestingDepth'), indented: limitError('maxNestingDepth') },
      });
    });

    it('10,000 nested Markdown quotes are refused instead of overflowing the stack', async () => {
      expect(await runCase('markdown-nested-quotes', { maxMs: 1000, maxRssMb: 400 })).toMatchObject({
        error: limitError('maxNestingDepth'),
      });
    });

    it("'*a _' x 20,000 (80 KB) loads in linear time: inline syntax is never lexed", async () => {
      expect(await runCase('markdown-quadratic-emphasis', { maxMs: 1000, maxRssMb: 400 })).toMatchObject({
        value: [{ depth: 1, text: 'Emphasis', offset: 0 }],
      });
    });

    it('a 10 MB paragraph (one line, or 2 million lines) loads with the headings before and after it', async () => {
      expect(await runCase('markdown-10mb-paragraph', { maxMs: 3000, maxRssMb: 500 })).toMatchObject({
        value: {
          oneLine: [
            { text: 'Intro', offset: 0 },
            { text: 'End', offset: 10_485_771 },
          ],
          manyLines: [
            { text: 'Intro', offset: 0 },
            { text: 'End', offset: 10_485_770 },
          ],
        },
      });
    });

    it('10,000 nested <div>s are refused by a linear scan instead of overflowing the stack', async () => {
      expect(await runCase('html-nested-divs', { maxMs: 1000, maxRssMb: 400 })).toMatchObject({ error: limitError('maxNestingDepth') });
    });

    it('HTML over 16 MiB is refused, never cut silently at html-to-text default limit', async () => {
      expect(await runCase('html-over-16mib', { maxMs: 1000, maxRssMb: 500 })).toMatchObject({
        error: {
          ...limitError('maxCharacters'),
          message: expect.stringMatching(/has 18,000,040 characters of text \(maxCharacters: 16,777,216\)$/),
        },
      });
    });

    it('a 50 MB attribute is refused instead of giving an empty text', async () => {
      expect(await runCase('html-50mb-attribute', { maxMs: 1000, maxRssMb: 500 })).toMatchObject({ error: limitError('maxCharacters') });
    });
  });

  describe('splitting and ingestion', () => {
    it('the recursive character splitter cuts a 20 MB line in memory proportional to its chunks', async () => {
      expect(await runCase('splitter-20mb-line', { heapMb: 128, maxMs: 10_000, maxRssMb: 400 })).toMatchObject({ value: 22_223 });
    });

    it('ingest refuses a document of 300,000 chunks by default, ingests it when allowed, and re-ingests it shrunk', async () => {
      expect(await runCase('ingest-300k-chunks', { heapMb: 1024, maxMs: 10_000, maxRssMb: 1200 })).toMatchObject({
        value: {
          byDefault: {
            ...limitError('maxChunksPerDocument'),
            message: expect.stringMatching(/"huge" splits into 300,000 chunks \(maxChunksPerDocument: 100,000\)$/),
          },
          raised: { chunks: 300_000, added: 300_000 },
          shrunk: { chunks: 1, deleted: 299_999 },
        },
      });
    });
  });
});
