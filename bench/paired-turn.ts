/**
 * The whole chat turn of this checkout against another version of the library, in one process, turn by turn (#35):
 * the same client (memory advisor over 1,000 stored messages with a 20-message window, question-answer RAG with BM25
 * top-5 over SciFact), the same loopback OpenAI-compatible server, each pair of turns in a random order (seeded), and
 * between any two turns an allocation burst that stands for the rest of a busy process (in `bench:peers`, the peers'
 * turns): code a turn runs once is cold there, and that is where a change to the request path shows. Reports the
 * medians of both versions (whole turn, time to first token, the request side up to `fetch`, each advisor hook) and
 * the median of the paired differences; where `bench:peers` varies by 0.1 ms from run to run, this resolves about ten
 * microseconds.
 *
 * Which version is set up first matters: the same code measured against itself comes out 10–25 µs faster on the
 * request side (most of it in the BM25 search) when its index and memory were built first. So the comparison runs
 * twice, in two processes, each version set up first once, and reports the mean of the two paired differences, in
 * which that bias cancels; `--first now|before` runs one of the two alone.
 *
 *   git worktree add ../before <commit> && ln -s "$PWD/node_modules" ../before/node_modules
 *   npm run bench:paired -- --before ../before [--turns 500] [--burst 200000] [--dataset <scifact folder>] [--first now|before] [--abort-signal]
 *
 * `MODEL_SERVER=process` runs the loopback server in a process of its own, as bench:peers does with it. `--abort-signal`
 * gives every turn a caller's abort signal, as a Next.js route passes `req.signal` (bench:peers passes none).
 *
 * It runs on Node's own type stripping, the code as shipped, as bench:peers does.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createOpenAI } from '@ai-sdk/openai';
import { beirDocumentText } from '../src/evaluation/load-beir-dataset.ts';
import { loadSciFact } from './beir/load-scifact.ts';
import { printChildResult, resultsOfChildRuns } from './child-runs.ts';
import { printMachineFacts } from './machine-facts.ts';
import { seededRandom } from './seeded-random.ts';
import { loopbackPlacementFromEnv, startLoopbackOpenAIAt } from './peers/loopback-openai.ts';
import { median } from './statistics.ts';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    turns: { type: 'string' },
    burst: { type: 'string' },
    dataset: { type: 'string' },
    first: { type: 'string' },
    'abort-signal': { type: 'boolean' },
  },
  strict: true,
});
if (values.before === undefined) {
  console.error('bench:paired: give the other checkout with --before <folder> (see the header of bench/paired-turn.ts)');
  process.exit(1);
}
if (values.first !== undefined && values.first !== 'now' && values.first !== 'before') {
  console.error(`bench:paired: --first takes now or before, not ${JSON.stringify(values.first)}`);
  process.exit(1);
}
/** What the run of one order prints last, for the run of both to combine. */
const RESULT_PREFIX = 'bench:paired result ';
interface Row {
  readonly measure: string;
  readonly now: number;
  readonly before: number;
  readonly difference: number;
}
const us = (ms: number) => (ms * 1000).toFixed(1);

if (values.first === undefined) {
  const runs = resultsOfChildRuns<Row[]>(
    fileURLToPath(import.meta.url),
    RESULT_PREFIX,
    (['now', 'before'] as const).map((first) => ({ args: [...process.argv.slice(2), '--first', first] })),
  );
  console.log(
    '\nBoth orders (µs): medians averaged, and the paired differences of each order and their mean, in which the bias of set-up order cancels',
  );
  console.table(
    runs[0]!.map((row, index) => {
      const other = runs[1]![index]!;
      return {
        measure: row.measure,
        now: us((row.now + other.now) / 2),
        before: us((row.before + other.before) / 2),
        'now set up first': us(row.difference),
        'before set up first': us(other.difference),
        'mean difference': us((row.difference + other.difference) / 2),
      };
    }),
  );
  process.exit(0);
}

const TURNS = Number(values.turns ?? 500);
const WARMUP = 100;
const BURST = Number(values.burst ?? 200_000);
const ANSWER = Array.from({ length: 24 }, (_, index) => `word${index}`).join(' ');
const SYSTEM = 'You are a helpful assistant. Answer from the passages when they help.';

/** The library's entry points, as both versions export them. */
interface Library {
  readonly src: typeof import('../src/index.ts');
  readonly bm25: typeof import('../src/bm25/index.ts');
  readonly advisors: typeof import('../advisors/index.ts');
}

async function libraryAt(folder: string): Promise<Library> {
  const root = resolve(folder);
  return {
    src: await import(`${root}/src/index.ts`),
    bm25: await import(`${root}/src/bm25/index.ts`),
    advisors: await import(`${root}/advisors/index.ts`),
  };
}

const { corpus, queries } = await loadSciFact();
const documents = corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} }));
const questions = queries.map((query) => query.text);
const server = await startLoopbackOpenAIAt(loopbackPlacementFromEnv('bench:paired'), ANSWER);

/** Marks of the turn running now, relative to nothing: spans are differences of two marks. */
let marks: Record<string, number> = {};
const mark = (name: string) => {
  marks[name] ??= performance.now();
};
const openai = createOpenAI({
  baseURL: server.baseURL,
  apiKey: 'bench',
  fetch: (input, init) => {
    mark('fetch');
    return fetch(input, init);
  },
});

interface Sample {
  total: number;
  ttft: number;
  spans: Record<string, number>;
}

const SPANS: readonly [string, string, string][] = [
  ['request side (stream() → fetch)', 'begin', 'fetch'],
  ['memory before', 'message-memory:before', 'message-memory:before-end'],
  ['RAG before', 'question-answer:before', 'question-answer:before-end'],
  ['RAG before → fetch (source parts, chain, streamText)', 'question-answer:before-end', 'fetch'],
  ['memory after', 'message-memory:after', 'message-memory:after-end'],
];

async function turnOf({ src, bm25, advisors }: Library, name: string): Promise<(question: string) => Promise<Sample>> {
  const memory = src.createChatMemory();
  for (let index = 0; index < 500; index++) {
    const turn = [
      { role: 'user' as const, content: questions[index % questions.length] },
      { role: 'assistant' as const, content: ANSWER },
    ];
    await memory.appendTurn(name, turn, { key: `stored-${index}`, metadata: { turnId: `stored-${index}` } });
  }
  // Each hook marks its start and end, as the instrumented twin of bench:peers does.
  const markedHook =
    <T>(label: string, hook: (value: T) => T | Promise<T>) =>
    async (value: T): Promise<T> => {
      mark(label);
      const result = await hook(value);
      mark(`${label}-end`);
      return result;
    };
  const marked = (advisor: import('../src/index.ts').Advisor): import('../src/index.ts').Advisor => ({
    ...advisor,
    ...(advisor.before && { before: markedHook(`${advisor.name}:before`, (request) => advisor.before!(request)) }),
    ...(advisor.after && { after: markedHook(`${advisor.name}:after`, (response) => advisor.after!(response)) }),
  });
  const chat = src.createChatClient({
    model: openai.chat(name),
    instructions: SYSTEM,
    advisors: [
      advisors.messageMemoryAdvisor({ memory }),
      advisors.questionAnswerAdvisor({ retriever: bm25.createBm25Retriever({ documents }), topK: 5 }),
    ].map(marked),
  });
  return async (question) => {
    marks = {};
    const begin = performance.now();
    marks.begin = begin;
    let ttft = Number.NaN;
    let text = '';
    const abortSignal = values['abort-signal'] ? new AbortController().signal : undefined;
    const result = chat.stream({ prompt: question, context: { conversationId: name }, abortSignal });
    for await (const delta of result.textStream) {
      if (Number.isNaN(ttft) && delta !== '') ttft = performance.now() - begin;
      text += delta;
    }
    await result.response;
    const total = performance.now() - begin;
    if (text !== ANSWER) throw new Error(`${name} answered ${JSON.stringify(text)}`);
    const spans = Object.fromEntries(SPANS.map(([label, from, to]) => [label, marks[to]! - marks[from]!]));
    return { total, ttft, spans };
  };
}

const junk: unknown[] = new Array(5_000);
/** Allocation a busy process does between two turns: it fills the young generation, and the caches, with other data. */
function burst(): void {
  for (let index = 0; index < BURST; index++) junk[index % junk.length] = { index, text: `x${index}` };
}

const setUp = {
  now: () => libraryAt(fileURLToPath(new URL('..', import.meta.url))).then((library) => turnOf(library, 'now')),
  before: () => libraryAt(values.before!).then((library) => turnOf(library, 'before')),
};
const [firstTurn, secondTurn] = [await setUp[values.first](), await setUp[values.first === 'now' ? 'before' : 'now']()];
const versions = values.first === 'now' ? { now: firstTurn, before: secondTurn } : { now: secondTurn, before: firstTurn };
const random = seededRandom(35);
const samples = { now: [] as Sample[], before: [] as Sample[] };

printMachineFacts();
console.log(
  `bench:paired: ${TURNS} pairs of turns after ${WARMUP}, this checkout against ${values.before}, burst ${BURST} objects, ` +
    `${values.first === 'now' ? 'this checkout' : 'the other'} set up first${values['abort-signal'] ? ", each turn with a caller's abort signal" : ''}`,
);
for (let index = 0; index < WARMUP + TURNS; index++) {
  const question = questions[(index * 7) % questions.length];
  const order = random() < 0.5 ? (['now', 'before'] as const) : (['before', 'now'] as const);
  const pair: Partial<Record<'now' | 'before', Sample>> = {};
  for (const version of order) {
    burst();
    pair[version] = await versions[version](question);
  }
  if (index < WARMUP) continue;
  samples.now.push(pair.now!);
  samples.before.push(pair.before!);
}

const rows: [string, (sample: Sample) => number][] = [
  ['whole turn', (sample) => sample.total],
  ['time to first token', (sample) => sample.ttft],
  ...SPANS.map(([label]): [string, (sample: Sample) => number] => [label, (sample) => sample.spans[label]!]),
];
const results: Row[] = rows.map(([measure, of]) => ({
  measure,
  now: median(samples.now.map(of)),
  before: median(samples.before.map(of)),
  difference: median(samples.now.map((sample, index) => of(sample) - of(samples.before[index]!))),
}));
console.log('\nMedians (µs) and the median of the paired differences (this checkout − before)');
console.table(
  results.map((row) => ({ measure: row.measure, now: us(row.now), before: us(row.before), 'paired difference': us(row.difference) })),
);
printChildResult(RESULT_PREFIX, results);

await server.close();
process.exit(0);
