/**
 * The whole chat turn, side by side with LangChain.js, LlamaIndex.TS and Mastra (issue #35): a conversation of 1,000
 * stored messages read through a 20-message window, BM25 top-5 over SciFact's 5,183 documents, the answer streamed from
 * one loopback OpenAI-compatible server, the turn stored. Turns of every framework and their bare model calls are
 * interleaved in one run; medians and ratios to ours are reported, then the breakdown of our turn and its necessary
 * parts (memory read, append, retrieval) measured alone in the same run.
 *
 *   [RUNS=<n>] [WARMUP=<rounds>] [TURNS=<n>] [MODEL_SERVER=process] [PEERS=none] npm run bench:peers [-- --dataset <scifact folder>]
 *
 * `WARMUP` rounds (default 20) run before the `TURNS` measured ones (default 120). After twenty, V8 is still compiling
 * every contender's code up its tiers while the turns are measured (`node --trace-opt` counts some 840 optimizing
 * compilations in rounds 20–140 with the peers left out), the bare calls' code and the necessary parts as much as the
 * client's; `WARMUP=1000` measures a process that has served a thousand turns, as a deployed route has.
 *
 * `PEERS=none` leaves the peers' turns out of the rounds: between two turns of ours run only ours' other variants (the
 * bare call, the floor, the instrumented twins) and the necessary parts, as in a process serving nothing but chat turns,
 * where the peers' hundreds of milliseconds no longer take the client's code out of the CPU's caches.
 *
 * The server shares this process unless `MODEL_SERVER=process` runs it in a child process of its own (as a model server
 * runs elsewhere): in the process, a framework's work while its request is out delays the answer as much.
 *
 * One run's ratio moves by a tenth from the next on the same machine (1.31–1.72× in eighteen runs of the same code on a
 * 2-core VM): `RUNS=n` runs it n times, each in a process of its own, and ends with each run's figures and their medians.
 *
 * Peers are set up as their docs show:
 *   LangChain.js  InMemoryChatMessageHistory, trimMessages (last 20 messages), BM25Retriever (@langchain/community),
 *                 the retrieved context in the system prompt (its RAG tutorial), ChatOpenAI streaming.
 *   LlamaIndex.TS `llamaindex` with @llamaindex/openai: ContextChatEngine (system prompt, then the passages in its
 *                 context template, in a system message it sends after the question), the OpenAI LLM streaming, the
 *                 conversation in a Memory (createMemory). Its memory windows by tokens only, against the chat model's
 *                 context window, so no setting sends exactly 20 messages: each turn the engine is given the Memory's
 *                 last 20 messages as its chat history, and the turn is added to the Memory after the answer. It still
 *                 counts their tokens every turn, with js-tiktoken (its optional gpt-tokenizer, not installed, was no
 *                 faster in a trial). Its one BM25 retriever, @llamaindex/bm25-retriever, cannot run here: deprecated,
 *                 it needs a newer @llamaindex/core than `llamaindex` ships with, its ES module build fails under Node,
 *                 and it throws on questions holding regular-expression characters (it makes a RegExp of each query
 *                 word). Our BM25 retriever stands in, behind LlamaIndex's BaseRetriever.
 *   Mastra        Agent with Memory (lastMessages 20) on an in-memory LibSQLStore. Mastra ships no BM25: our BM25
 *                 retriever stands in, its passages given as a context message (`context`, not stored).
 * Every framework's answer is checked against the served one, and the messages each sends the model against ours:
 * the same 20 history messages, the question, and how many of our top-5 passages it carries.
 *
 * A floor runs beside them: the necessary parts and the model call written by hand (the window read, BM25, the prompt,
 * the AI SDK's low-memory `streamText` that the chat client uses, the append), with none of the client's machinery. What
 * ours adds beyond it is the cost of the checks, the chain, the advisors' glue, the source parts and the stream hand-over.
 *
 * It runs on Node's own type stripping (no tsx), the code as shipped, as bench:chain does.
 */
import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import { BM25Retriever } from '@langchain/community/retrievers/bm25';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { Document as LangChainDocument } from '@langchain/core/documents';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, trimMessages } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { openai as llamaIndexOpenAI } from '@llamaindex/openai';
import { Agent, type AgentConfig } from '@mastra/core/agent';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { experimental_streamTextLowMemory as streamTextLowMemory, streamText } from 'ai';
import {
  BaseRetriever,
  ContextChatEngine,
  createMemory,
  extractText,
  Document as LlamaIndexDocument,
  type ChatMessage as LlamaIndexMessage,
  type NodeWithScore,
  type QueryBundle,
  Settings as LlamaIndexSettings,
} from 'llamaindex';
import { messageMemoryAdvisor, questionAnswerAdvisor } from '../../advisors/index.ts';
import { type Advisor, type ChatMemory, createChatClient, createChatMemory, type Retriever } from '../../src/index.ts';
import { createBm25Retriever } from '../../src/bm25/index.ts';
import { formatDocumentContext, renderContextTemplate } from '../../src/retrieval/index.ts';
import { beirDocumentText } from '../../src/evaluation/load-beir-dataset.ts';
import { loadSciFact } from '../beir/load-scifact.ts';
import { printChildResult, resultsOfChildRuns } from '../child-runs.ts';
import { printMachineFacts } from '../machine-facts.ts';
import { seededRandom, shuffled } from '../seeded-random.ts';
import { loopbackPlacementFromEnv, type ServedRequest, startLoopbackOpenAIAt } from './loopback-openai.ts';
import { median } from '../statistics.ts';

/** What each run prints last, for a run of several to summarise. */
const RESULT_PREFIX = 'bench:peers result ';
interface RunResult {
  /** Ours' added time per turn, the necessary parts' sum, ours' machinery beyond the floor (ms). */
  readonly added: number;
  readonly necessary: number;
  readonly machinery: number;
  /** Ours' time to first token minus its goal, bare + retrieval + read + 0.2 ms: at most 0 meets it. */
  readonly ttftOverGoal: number;
}

/** A whole number from the environment variable `name`, at least `least`; `fallback` when it is unset. */
function countFromEnv(name: string, fallback: number, least: 0 | 1): number {
  const count = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(count) || count < least) {
    console.error(
      `bench:peers: ${name} must be a ${least === 1 ? 'positive' : 'non-negative'} whole number, not ${JSON.stringify(process.env[name])}`,
    );
    process.exit(1);
  }
  return count;
}

const RUNS = countFromEnv('RUNS', 1, 1);
// Checked here, before a run of several starts its children.
const TURNS = countFromEnv('TURNS', 120, 1);
const WARMUP = countFromEnv('WARMUP', 20, 0);
const MODEL_SERVER = loopbackPlacementFromEnv('bench:peers');
const PEERS = process.env.PEERS ?? 'all';
if (PEERS !== 'all' && PEERS !== 'none') {
  console.error(`bench:peers: PEERS takes all or none, not ${JSON.stringify(PEERS)}`);
  process.exit(1);
}
if (RUNS > 1) {
  const results = resultsOfChildRuns<RunResult>(
    fileURLToPath(import.meta.url),
    RESULT_PREFIX,
    Array.from({ length: RUNS }, (_, index) => ({
      title: `run ${index + 1} of ${RUNS}`,
      args: process.argv.slice(2),
      env: { ...process.env, RUNS: '1' },
    })),
  );
  const ratios = results.map((result) => result.added / result.necessary);
  console.log(`\nOurs over ${RUNS} runs (each a process of its own, ${TURNS} turns after ${WARMUP} warm-up rounds)`);
  console.table(
    results.map((result, index) => ({
      'added (ms)': result.added.toFixed(3),
      'necessary parts (ms)': result.necessary.toFixed(3),
      '× necessary (goal ≤ 1.5)': ratios[index]!.toFixed(2),
      'TTFT over its goal (ms, goal ≤ 0)': result.ttftOverGoal.toFixed(3),
      'machinery beyond the floor (ms)': result.machinery.toFixed(3),
    })),
  );
  console.log(
    `median ${median(ratios).toFixed(2)}× the necessary parts (${ratios.filter((ratio) => ratio <= 1.5).length} of ${RUNS} runs at most 1.5×); ` +
      `time to first token within its goal in ${results.filter((result) => result.ttftOverGoal <= 0).length} of ${RUNS}`,
  );
  process.exit(0);
}

const STORED_MESSAGES = 1_000;
const WINDOW = 20;
const TOP_K = 5;
const SYSTEM = 'You are a helpful assistant. Answer from the passages when they help.';
// No trailing space: Mastra trims stored answers, which would set its history apart from the others'.
const ANSWER = Array.from({ length: 24 }, (_, index) => `word${index}`).join(' ');

type MastraModel = Extract<AgentConfig['model'], { specificationVersion: 'v4' }>;
/** A history message as every framework here takes it. */
type PlainMessage = { role: 'user'; content: string } | { role: 'assistant'; content: string };

const { corpus, queries } = await loadSciFact();
const documents = corpus.map((entry) => ({ id: entry.id, text: beirDocumentText(entry), metadata: {} }));
const questions = queries.map((query) => query.text);
const server = await startLoopbackOpenAIAt(MODEL_SERVER, ANSWER);
const apiKey = 'bench';

/** Marks of one instrumented turn of ours, on the bench's clock. */
type Marks = Record<string, number>;
let marks: Marks = {};
const mark = (name: string) => {
  marks[name] = performance.now();
};

const timedFetch: typeof fetch = async (input, init) => {
  mark('fetch');
  const response = await fetch(input, init);
  mark('headers');
  return response;
};

/** The 1,000 stored messages every framework starts from: SciFact questions and the served answer. */
const storedTurns = Array.from({ length: STORED_MESSAGES / 2 }, (_, index) => ({
  question: questions[(index + 200) % questions.length],
  answer: ANSWER,
}));

// ---- ours ----
const openai = createOpenAI({ baseURL: server.baseURL, apiKey });
const instrumentedOpenAI = createOpenAI({ baseURL: server.baseURL, apiKey, fetch: timedFetch });
const ourRetriever = createBm25Retriever({ documents });

async function filledMemory(conversationId: string): Promise<ChatMemory> {
  const memory = createChatMemory();
  for (const [index, { question, answer }] of storedTurns.entries()) {
    await memory.appendTurn(
      conversationId,
      [
        { role: 'user', content: question },
        { role: 'assistant', content: answer },
      ],
      { key: `stored-${index}`, metadata: { turnId: `stored-${index}` } },
    );
  }
  return memory;
}

function ourClient(memory: ChatMemory, retriever: Retriever, model = openai.chat('ours'), wrap = (advisor: Advisor) => advisor) {
  return createChatClient({
    model,
    instructions: SYSTEM,
    advisors: [messageMemoryAdvisor({ memory }), questionAnswerAdvisor({ retriever, topK: TOP_K })].map(wrap),
  });
}

const ourMemory = await filledMemory('ours');
const ours = ourClient(ourMemory, ourRetriever);

// The instrumented twin: every hook, the store, the retriever and the HTTP call mark the turn's timeline.
function timed<T extends object>(target: T, method: keyof T & string, name: string): T {
  const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  return Object.assign(Object.create(target) as T, {
    [method]: async (...args: unknown[]) => {
      mark(`${name}:start`);
      try {
        return await original(...args);
      } finally {
        mark(`${name}:end`);
      }
    },
  });
}
const instrumentedMemory = timed(timed(await filledMemory('instrumented'), 'read', 'memory.read'), 'appendTurn', 'memory.append');
const instrumented = ourClient(
  instrumentedMemory,
  timed(ourRetriever, 'retrieve', 'retrieve'),
  instrumentedOpenAI.chat('ours-instrumented'),
  (advisor) => ({
    ...advisor,
    // A hook's request side: `before`, or an around hook up to its `next`.
    ...(advisor.before && {
      before: async (request) => {
        mark(`${advisor.name}.before:start`);
        const result = await advisor.before!(request);
        mark(`${advisor.name}.before:end`);
        return result;
      },
    }),
    ...(advisor.aroundStream && {
      aroundStream: (request, next) => {
        mark(`${advisor.name}.before:start`);
        return advisor.aroundStream!(request, (nextRequest) => {
          mark(`${advisor.name}.before:end`);
          return next(nextRequest);
        });
      },
    }),
    ...(advisor.after && {
      after: async (response) => {
        mark(`${advisor.name}.after:start`);
        const result = await advisor.after!(response);
        mark(`${advisor.name}.after:end`);
        return result;
      },
    }),
  }),
);

// The necessary parts, alone: a window read and an append on a memory of the same size holding the same turns, one BM25 search.
const aloneMemory = await filledMemory('alone');

// The floor: the necessary parts and the model call written by hand, with nothing else (no checks, no chain, no sources,
// no trace, no turn view stored), through the low-memory streamText the chat client uses.
const floorMemory = await filledMemory('floor');
let floorTurns = 0;

async function floorTurn(question: string): Promise<Sample> {
  const begin = performance.now();
  let ttft = Number.NaN;
  const entries = await floorMemory.read('floor', { keepOpenToolCalls: true, omitTurnView: true });
  const passages = await ourRetriever.retrieve(question, { topK: TOP_K });
  const prompt = renderContextTemplate({ question, context: formatDocumentContext(passages) });
  const result = streamTextLowMemory({
    model: openai.chat('floor'),
    instructions: SYSTEM,
    messages: [...entries.map((entry) => entry.message), { role: 'user', content: prompt }],
  });
  let text = '';
  for await (const part of result.stream) {
    if (part.type !== 'text-delta') continue;
    if (Number.isNaN(ttft) && part.text !== '') ttft = performance.now() - begin;
    text += part.text;
  }
  const turnId = `floor-${floorTurns++}`;
  await floorMemory.appendTurn(
    'floor',
    [
      { role: 'user', content: question },
      { role: 'assistant', content: text },
    ],
    { key: turnId, metadata: { ...storedMetadata, turnId } },
  );
  return { total: performance.now() - begin, ttft, text };
}

// ---- LangChain.js ----
const langChainModel = new ChatOpenAI({ model: 'langchain', apiKey, configuration: { baseURL: server.baseURL }, streaming: true });
const langChainRetriever = BM25Retriever.fromDocuments(
  documents.map((document) => new LangChainDocument({ pageContent: document.text, metadata: { id: document.id } })),
  { k: TOP_K },
);
const langChainHistory = new InMemoryChatMessageHistory();
for (const { question, answer } of storedTurns) await langChainHistory.addMessages([new HumanMessage(question), new AIMessage(answer)]);

async function langChainTurn(question: string, onToken: () => void): Promise<string> {
  const window = await trimMessages(await langChainHistory.getMessages(), {
    maxTokens: WINDOW,
    tokenCounter: (messages) => messages.length,
    strategy: 'last',
    startOn: 'human',
  });
  const passages = await langChainRetriever.invoke(question);
  const context = passages.map((passage) => passage.pageContent).join('\n\n');
  const messages: BaseMessage[] = [
    new SystemMessage(`${SYSTEM}\n\nUse the following pieces of retrieved context to answer the question.\n\n${context}`),
    ...window,
    new HumanMessage(question),
  ];
  let text = '';
  for await (const chunk of await langChainModel.stream(messages)) {
    if (chunk.content !== '') onToken();
    text += chunk.content as string;
  }
  await langChainHistory.addMessages([new HumanMessage(question), new AIMessage(text)]);
  return text;
}

// ---- Mastra ----
const mastraOpenAI = createOpenAI({ baseURL: server.baseURL, apiKey });
// Mastra runs AI SDK 7 models; its declared type (a copy of the provider's) trails the provider's own by a detail of `doGenerate`.
const mastraModel = (id: string) => mastraOpenAI.chat(id) as unknown as MastraModel;
const mastraMemory = new Memory({
  storage: new LibSQLStore({ id: 'bench-peers', url: ':memory:' }),
  options: { lastMessages: WINDOW, semanticRecall: false, workingMemory: { enabled: false } },
});
const mastraAgent = new Agent({
  id: 'bench-agent',
  name: 'bench-agent',
  instructions: SYSTEM,
  model: mastraModel('mastra'),
  memory: mastraMemory,
});
const mastraBareAgent = new Agent({ id: 'bench-bare', name: 'bench-bare', instructions: SYSTEM, model: mastraModel('mastra-bare') });
const mastraThread = { thread: 'bench-thread', resource: 'bench-user' };
await mastraMemory.createThread({ threadId: mastraThread.thread, resourceId: mastraThread.resource });
const start = Date.now() - STORED_MESSAGES * 1000;
await mastraMemory.saveMessages({
  messages: storedTurns.flatMap(({ question, answer }, index) =>
    (
      [
        ['user', question],
        ['assistant', answer],
      ] as const
    ).map(([role, text], offset) => ({
      id: `stored-${index}-${offset}`,
      role,
      content: { format: 2 as const, parts: [{ type: 'text' as const, text }] },
      createdAt: new Date(start + (index * 2 + offset) * 1000),
      threadId: mastraThread.thread,
      resourceId: mastraThread.resource,
    })),
  ),
});

async function mastraTurn(question: string, onToken: () => void): Promise<string> {
  const passages = await ourRetriever.retrieve(question, { topK: TOP_K });
  const context = [{ role: 'system' as const, content: passages.map((passage) => passage.text).join('\n\n') }];
  const output = await mastraAgent.stream(question, { memory: mastraThread, context });
  let text = '';
  for await (const delta of output.textStream) {
    if (delta !== '') onToken();
    text += delta;
  }
  await output.text;
  return text;
}

// ---- LlamaIndex.TS ----
// Its model table gives the memory its token budget; a name outside the table gets 1,024 tokens, too few for the passages.
const llamaIndexModel = llamaIndexOpenAI({ model: 'gpt-4.1-mini', apiKey, baseURL: server.baseURL });
// As its docs do; the memory the engine makes for each turn takes its model from here.
LlamaIndexSettings.llm = llamaIndexModel;

/** Our BM25 behind LlamaIndex's retriever interface (see the header). */
class OurBm25InLlamaIndex extends BaseRetriever {
  // Public: BaseRetriever's is protected.
  constructor() {
    super();
  }

  async _retrieve({ query }: QueryBundle): Promise<NodeWithScore[]> {
    const passages = await ourRetriever.retrieve(extractText(query), { topK: TOP_K });
    return passages.map((passage) => ({ node: new LlamaIndexDocument({ id_: passage.id, text: passage.text }), score: passage.score }));
  }
}

const llamaIndexMemory = createMemory(
  storedTurns.flatMap(({ question, answer }): LlamaIndexMessage[] => [
    { role: 'user', content: question },
    { role: 'assistant', content: answer },
  ]),
);
const llamaIndexEngine = new ContextChatEngine({ retriever: new OurBm25InLlamaIndex(), chatModel: llamaIndexModel, systemPrompt: SYSTEM });

async function llamaIndexTurn(question: string, onToken: () => void): Promise<string> {
  // Exactly the last 20 messages, which its token window cannot be set to send (see the header).
  const window = (await llamaIndexMemory.get()).slice(-WINDOW);
  let text = '';
  for await (const chunk of await llamaIndexEngine.chat({ message: question, chatHistory: window, stream: true })) {
    if (chunk.delta !== '') onToken();
    text += chunk.delta;
  }
  await llamaIndexMemory.add({ role: 'user', content: question });
  await llamaIndexMemory.add({ role: 'assistant', content: text });
  return text;
}

// ---- the run ----
interface Sample {
  total: number;
  ttft: number;
  text: string;
}

async function sample(run: () => AsyncIterable<string>, onDelta?: () => void): Promise<Sample> {
  const begin = performance.now();
  let ttft = Number.NaN;
  let text = '';
  for await (const delta of run()) {
    if (Number.isNaN(ttft) && delta !== '') ttft = performance.now() - begin;
    text += delta;
    onDelta?.();
  }
  return { total: performance.now() - begin, ttft, text };
}

/** The peers' turns stream inside a function of their own, which reports each token as it arrives. */
async function sampleWithFirstToken(run: (onToken: () => void) => Promise<string>): Promise<Sample> {
  const begin = performance.now();
  let ttft = Number.NaN;
  const text = await run(() => {
    if (Number.isNaN(ttft)) ttft = performance.now() - begin;
  });
  return { total: performance.now() - begin, ttft, text };
}

let bareMessages: PlainMessage[] = [];
let bareLangChainMessages: BaseMessage[] = [];
let bareLlamaIndexMessages: LlamaIndexMessage[] = [];

interface Variant {
  readonly name: string;
  run(question: string): Promise<Sample>;
}

const variants: Variant[] = [
  {
    name: 'ours',
    async run(question) {
      const result = ours.stream({ prompt: question, context: { conversationId: 'ours' } });
      const measured = await sample(() => result.textStream);
      await result.response;
      return measured;
    },
  },
  {
    name: 'ours, bare streamText',
    run: () => sample(() => streamText({ model: openai.chat('ours-bare'), system: SYSTEM, messages: bareMessages }).textStream),
  },
  { name: 'floor (hand-written)', run: floorTurn },
  {
    name: 'ours, instrumented',
    async run(question) {
      marks = {};
      mark('stream');
      const result = instrumented.stream({ prompt: question, context: { conversationId: 'instrumented' } });
      const measured = await sample(
        () => result.textStream,
        () => marks['first-token'] ?? mark('first-token'),
      );
      mark('stream-done');
      await result.response;
      mark('response');
      return measured;
    },
  },
  {
    name: 'ours, bare streamText, instrumented',
    async run() {
      marks = {};
      mark('stream');
      const result = streamText({ model: instrumentedOpenAI.chat('ours-bare-instrumented'), system: SYSTEM, messages: bareMessages });
      const measured = await sample(
        () => result.textStream,
        () => marks['first-token'] ?? mark('first-token'),
      );
      mark('stream-done');
      return measured;
    },
  },
  {
    name: 'LangChain.js',
    run: (question) => sampleWithFirstToken((onToken) => langChainTurn(question, onToken)),
  },
  {
    name: 'LangChain.js, bare model.stream',
    run: () =>
      sampleWithFirstToken(async (onToken) => {
        let text = '';
        for await (const chunk of await langChainModel.stream(bareLangChainMessages)) {
          if (chunk.content !== '') onToken();
          text += chunk.content as string;
        }
        return text;
      }),
  },
  {
    name: 'LlamaIndex.TS',
    run: (question) => sampleWithFirstToken((onToken) => llamaIndexTurn(question, onToken)),
  },
  {
    name: 'LlamaIndex.TS, bare llm.chat',
    run: () =>
      sampleWithFirstToken(async (onToken) => {
        let text = '';
        for await (const chunk of await llamaIndexModel.chat({ messages: bareLlamaIndexMessages, stream: true })) {
          if (chunk.delta !== '') onToken();
          text += chunk.delta;
        }
        return text;
      }),
  },
  {
    name: 'Mastra',
    run: (question) => sampleWithFirstToken((onToken) => mastraTurn(question, onToken)),
  },
  {
    name: 'Mastra, bare agent.stream',
    run: () =>
      sampleWithFirstToken(async (onToken) => {
        const output = await mastraBareAgent.stream(bareMessages);
        let text = '';
        for await (const delta of output.textStream) {
          if (delta !== '') onToken();
          text += delta;
        }
        return text;
      }),
  },
];

/** The variants each round runs: without the peers' with `PEERS=none`. */
const measured =
  PEERS === 'all' ? variants : variants.filter((variant) => variant.name.startsWith('ours') || variant.name.startsWith('floor'));

/** Content of a served message as text, whatever shape the framework sent. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

interface Check {
  turns: number;
  answersIdentical: number;
  historyAlike: number;
  questionSent: number;
  passagesOfOurs: number;
  requests: number;
}

function checkTurn(check: Check, request: readonly ServedRequest[], ourRequest: ServedRequest, text: string, question: string): void {
  check.turns++;
  check.requests += request.length;
  if (text === ANSWER) check.answersIdentical++;
  const served = request.at(-1)!;
  // The question is the last message that is not a system one (LlamaIndex sends its context after it).
  const conversation = (messages: ServedRequest['messages']) =>
    messages.filter((message) => message.role !== 'system').map((message) => `${message.role}:${textOf(message.content)}`);
  const theirs = conversation(served.messages);
  const our = conversation(ourRequest.messages);
  if (theirs.length === WINDOW + 1 && theirs.slice(0, -1).join('\n') === our.slice(0, -1).join('\n')) check.historyAlike++;
  if (theirs.at(-1)!.startsWith('user:') && theirs.at(-1)!.includes(question)) check.questionSent++;
  const everything = served.messages.map((message) => textOf(message.content)).join('\n');
  check.passagesOfOurs += ourPassages.filter((passage) => everything.includes(passage.slice(0, 200))).length;
}

let ourPassages: string[] = [];

const samples = new Map(variants.map((variant) => [variant.name, { total: [] as number[], ttft: [] as number[] }]));
const checks = new Map(
  variants.map((variant) => [
    variant.name,
    { turns: 0, answersIdentical: 0, historyAlike: 0, questionSent: 0, passagesOfOurs: 0, requests: 0 },
  ]),
);
const alone = { read: [] as number[], append: [] as number[], retrieve: [] as number[] };
const timelines = new Map<string, Marks[]>([
  ['ours, instrumented', []],
  ['ours, bare streamText, instrumented', []],
]);

/** The necessary parts' place in the round. */
const NECESSARY_PARTS = Symbol('necessary parts alone');

const random = seededRandom(35);

/** What ours stored with its last turn's messages (the retrieved documents, the sources the page showed): the alone append stores it too. */
async function lastStoredMetadata() {
  const { turnId, createdAt, ...stored } = (await ourMemory.read('ours')).at(-1)!.metadata;
  return stored;
}
let storedMetadata: Awaited<ReturnType<typeof lastStoredMetadata>> = {};

/**
 * A window read (as the memory advisor reads: open tool calls kept, turn views left out, every message decoded) and an
 * append on a memory of the same size holding the same turns, and one BM25 search, each timed.
 */
async function necessaryPartsAlone(question: string, iteration: number) {
  const readStart = performance.now();
  const entries = await aloneMemory.read('alone', { keepOpenToolCalls: true, omitTurnView: true });
  // A store decodes each message when it is first used; the turn uses every one, so the read is whole once they are.
  for (const entry of entries) void entry.message;
  const readEnd = performance.now();
  await aloneMemory.appendTurn(
    'alone',
    [
      { role: 'user', content: question },
      { role: 'assistant', content: ANSWER },
    ],
    { key: `alone-${iteration}`, metadata: { ...storedMetadata, turnId: `alone-${iteration}` } },
  );
  const appendEnd = performance.now();
  await ourRetriever.retrieve(question, { topK: TOP_K });
  return { read: readEnd - readStart, append: appendEnd - readEnd, retrieve: performance.now() - appendEnd };
}

printMachineFacts();
console.log(
  `bench:peers: ${STORED_MESSAGES} stored messages, window ${WINDOW}, BM25 top-${TOP_K} over ${documents.length} SciFact documents, ` +
    `${TURNS} interleaved turns per framework after ${WARMUP} warm-up turns; the model server ${MODEL_SERVER === 'process' ? 'in a process of its own' : 'in this process'}` +
    (PEERS === 'none' ? '; the peers left out (PEERS=none)' : ''),
);

for (let iteration = 0; iteration < WARMUP + TURNS; iteration++) {
  const question = questions[iteration % questions.length];
  const measuring = iteration >= WARMUP;
  ourPassages = (await ourRetriever.retrieve(question, { topK: TOP_K })).map((passage) => passage.text);
  // Each round runs the variants, and the necessary parts alone, in an order of its own: a rotation would keep every
  // variant behind the same neighbour, whose traces in the caches (our bare call always right after our turn, its
  // streaming code still warm; our turn always after a peer's) it would inherit in every round. The first round runs
  // ours first, so that the bare calls have messages to send.
  const round: (Variant | typeof NECESSARY_PARTS)[] = [...measured, NECESSARY_PARTS];
  const order = iteration === 0 ? round : shuffled(round, random);
  const results: [Variant, Sample, readonly ServedRequest[]][] = [];
  let parts: { read: number; append: number; retrieve: number } | undefined;
  for (const variant of order) {
    if (variant === NECESSARY_PARTS) {
      parts = await necessaryPartsAlone(question, iteration);
      continue;
    }
    const result = await variant.run(question);
    const requests = await server.take();
    results.push([variant, result, requests]);
    // The bare calls send what ours sent the model last (the round before, when they run before ours).
    if (variant === variants[0]) useAsBare(requests[0]!);
    if (variant.name.endsWith('instrumented') && measuring) timelines.get(variant.name)!.push({ ...marks, ...serverMarks(requests[0]!) });
  }
  const ourRequest = results.find(([variant]) => variant === variants[0])![2][0]!;
  storedMetadata = await lastStoredMetadata();
  if (!measuring) continue;
  alone.read.push(parts!.read);
  alone.append.push(parts!.append);
  alone.retrieve.push(parts!.retrieve);
  for (const [variant, result, requests] of results) {
    samples.get(variant.name)!.total.push(result.total);
    samples.get(variant.name)!.ttft.push(result.ttft);
    checkTurn(checks.get(variant.name)!, requests, ourRequest, result.text, question);
  }
}

function useAsBare(request: ServedRequest): void {
  bareMessages = request.messages.slice(1).map((message) => ({ role: message.role, content: textOf(message.content) }) as PlainMessage);
  bareLangChainMessages = [
    new SystemMessage(SYSTEM),
    ...bareMessages.map((message) => (message.role === 'user' ? new HumanMessage(message.content) : new AIMessage(message.content))),
  ];
  bareLlamaIndexMessages = [{ role: 'system', content: SYSTEM }, ...bareMessages];
}

function serverMarks(request: ServedRequest): Marks {
  return { 'server:received': request.received, 'server:first-chunk': request.firstChunk, 'server:ended': request.ended };
}

const medians = (name: string) => ({ total: median(samples.get(name)!.total), ttft: median(samples.get(name)!.ttft) });
const frameworks = (
  [
    ['ours', 'ours, bare streamText'],
    ['LangChain.js', 'LangChain.js, bare model.stream'],
    ['LlamaIndex.TS', 'LlamaIndex.TS, bare llm.chat'],
    ['Mastra', 'Mastra, bare agent.stream'],
  ] satisfies [string, string][]
).filter(([name]) => measured.some((variant) => variant.name === name));
const oursAdded = medians('ours').total - medians('ours, bare streamText').total;
console.log(`\nWhole turn (medians of ${TURNS} interleaved turns; "bare" is the framework's own model call with the same messages)`);
console.table(
  frameworks.map(([name, bare]) => {
    const turn = medians(name);
    const plain = medians(bare);
    const added = turn.total - plain.total;
    return {
      framework: name,
      'turn (ms)': turn.total.toFixed(2),
      'bare call (ms)': plain.total.toFixed(2),
      'added per turn (ms)': added.toFixed(2),
      'added × ours': (added / oursAdded).toFixed(1),
      'TTFT (ms)': turn.ttft.toFixed(2),
      'bare TTFT (ms)': plain.ttft.toFixed(2),
      'TTFT × ours': (turn.ttft / medians('ours').ttft).toFixed(1),
    };
  }),
);

console.log('\nChecks (per framework, over the measured turns)');
console.table(
  measured
    .filter((variant) => !variant.name.includes('bare'))
    .map((variant) => {
      const check = checks.get(variant.name)!;
      return {
        framework: variant.name,
        'answer identical': `${check.answersIdentical}/${check.turns}`,
        'model requests': check.requests,
        'same 20 history messages as ours': `${check.historyAlike}/${check.turns}`,
        'question sent': `${check.questionSent}/${check.turns}`,
        'our top-5 passages sent (mean)': (check.passagesOfOurs / check.turns).toFixed(2),
      };
    }),
);

const parts = { read: median(alone.read), append: median(alone.append), retrieve: median(alone.retrieve) };
const necessary = parts.read + parts.append + parts.retrieve;
const bare = medians('ours, bare streamText');
const ttftGoal = bare.ttft + parts.retrieve + parts.read + 0.2;
console.log(
  `\nNecessary parts alone (medians): memory read ${parts.read.toFixed(3)} ms, append ${parts.append.toFixed(3)} ms, ` +
    `BM25 retrieval ${parts.retrieve.toFixed(3)} ms; sum ${necessary.toFixed(3)} ms`,
);
console.log(
  `ours: added ${oursAdded.toFixed(3)} ms = ${(oursAdded / necessary).toFixed(2)}× the necessary parts (target ≤ 1.5×); ` +
    `TTFT ${medians('ours').ttft.toFixed(3)} ms vs bare + retrieval + read + 0.2 = ${ttftGoal.toFixed(3)} ms`,
);
const floorAdded = medians('floor (hand-written)').total - bare.total;
const machinery = oursAdded - floorAdded;
console.log(
  `floor (the necessary parts and the low-memory model call, hand-written, nothing else): added ${floorAdded.toFixed(3)} ms, ` +
    `TTFT ${medians('floor (hand-written)').ttft.toFixed(3)} ms; ours' machinery on top of it: ${machinery.toFixed(3)} ms per turn, ` +
    `${(medians('ours').ttft - medians('floor (hand-written)').ttft).toFixed(3)} ms before the first token`,
);

const span = (name: string, from: string, to: string) => {
  const values = timelines.get(name)!.map((timeline) => timeline[to]! - timeline[from]!);
  return values.every((value) => Number.isFinite(value)) ? median(values).toFixed(3) : '';
};
const memoryName = 'message-memory';
const ragName = 'question-answer';
const turnSpans: [string, string, string][] = [
  ['stream() → memory before', 'stream', `${memoryName}.before:start`],
  ['memory before (whole hook)', `${memoryName}.before:start`, `${memoryName}.before:end`],
  ['  of which memory.read', 'memory.read:start', 'memory.read:end'],
  ['memory before → RAG before', `${memoryName}.before:end`, `${ragName}.before:start`],
  ['RAG before (its before hook, or an around hook up to next)', `${ragName}.before:start`, `${ragName}.before:end`],
  ['  of which BM25 retrieve', 'retrieve:start', 'retrieve:end'],
  ['RAG before done → fetch (chain, source parts, streamText, provider)', `${ragName}.before:end`, 'fetch'],
];
const modelSpans: [string, string, string][] = [
  ['stream() → fetch (whole request side)', 'stream', 'fetch'],
  ['fetch → server has the request', 'fetch', 'server:received'],
  ['server: first chunk written', 'server:received', 'server:first-chunk'],
  ['first chunk → first token at the caller', 'server:first-chunk', 'first-token'],
  ['server: last chunk written', 'server:first-chunk', 'server:ended'],
  ['last chunk → stream done at the caller', 'server:ended', 'stream-done'],
  ['memory after (whole hook)', `${memoryName}.after:start`, `${memoryName}.after:end`],
  ['  of which memory.appendTurn', 'memory.append:start', 'memory.append:end'],
  ['last chunk → memory after starts', 'server:ended', `${memoryName}.after:start`],
  ['stream done → response settled', 'stream-done', 'response'],
  ['stream() → first token', 'stream', 'first-token'],
  ['stream() → stream done', 'stream', 'stream-done'],
];
console.log(`\nBreakdown of our turn (instrumented twins, interleaved with the rest; medians of each span over ${TURNS} turns)`);
console.table(
  [...turnSpans, ...modelSpans].map(([label, from, to]) => ({
    span: label,
    'ours (ms)': span('ours, instrumented', from, to),
    'bare streamText (ms)': span('ours, bare streamText, instrumented', from, to),
  })),
);
console.log(
  `instrumented twins: turn ${medians('ours, instrumented').total.toFixed(3)} ms (uninstrumented ${medians('ours').total.toFixed(3)} ms), ` +
    `bare ${medians('ours, bare streamText, instrumented').total.toFixed(3)} ms (uninstrumented ${medians('ours, bare streamText').total.toFixed(3)} ms)`,
);

printChildResult(RESULT_PREFIX, {
  added: oursAdded,
  necessary,
  machinery,
  ttftOverGoal: medians('ours').ttft - ttftGoal,
} satisfies RunResult);

await server.close();
process.exit(0);
