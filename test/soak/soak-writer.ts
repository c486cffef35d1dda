/**
 * One writer process of the conversation soak: random appends (some resent under the same key), clears,
 * regenerations and edits of stored turns, and tool approvals raced by every writer (through the chat client and through
 * the middleware with `guardServerTools`), on four shared conversations of one store, through `ChatMemory` and the chat
 * client. Every operation is written as a JSON line to the log file when it ends, with its start and end times and
 * its outcome, for the oracle in `conversation-soak.test.ts`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { jsonSchema, simulateReadableStream, streamText, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createClient } from 'redis';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, createChatClient, guardServerTools } from '../../src/index.ts';
import { createChatMemory, openToolCalls, type ChatMemoryStore, type MemoryEntry } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore, type AnyRedisClient } from '../../src/redis/index.ts';

const [backend, namespace, writerText, operationsText, logFile] = process.argv.slice(2);
const writer = Number(writerText);
const operations = Number(operationsText);
const SOAK_CONVERSATIONS = ['c0', 'c1', 'c2', 'c3'];

let seed = 7919 * (writer + 1);
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
const log = (entry: Record<string, unknown>) => appendFileSync(logFile, `${JSON.stringify({ writer, ...entry })}\n`);

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const finish = (reason: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason },
  usage,
});
/**
 * Asks for a payment or a transfer (tools that need approval) when told to pay or transfer; answers anything else, tool
 * results included, with text.
 */
const model = new MockLanguageModelV4({
  doStream: async ({ prompt }) => {
    const last = prompt.at(-1)!;
    const text = last.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
    const [verb, id] = text.split(' ');
    const chunks: LanguageModelV4StreamPart[] =
      verb === 'pay' || verb === 'transfer'
        ? [{ type: 'tool-call', toolCallId: `call-${id}`, toolName: verb, input: '{}' }, finish('tool-calls')]
        : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'ok' }, { type: 'text-end', id: 't' }, finish('stop')];
    return { stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...chunks] }) };
  },
});

let redisClient: AnyRedisClient | undefined;
let store: ChatMemoryStore & { close(): Promise<void> };
if (backend === 'redis') {
  // Named, so that the soak kills only its writers' connections.
  redisClient = createClient({ url: process.env.REDIS_URL, name: `soak-writer-${writer}` }) as AnyRedisClient;
  redisClient.on('error', () => {});
  store = createRedisChatMemoryStore({ client: redisClient, keyPrefix: namespace });
} else {
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('application_name', 'ai-advisors-soak');
  store = createPostgresChatMemoryStore({ connectionString: url.toString(), tableName: namespace, compaction: { segmentEntries: 8 } });
}
const memory = createChatMemory({ store, window: false, timeout: 5_000 });
const approvedTool = () =>
  tool({
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    needsApproval: true,
    execute: async (_input, { toolCallId }) => {
      log({ op: 'executed', callId: toolCallId, t: Date.now() });
      return { paid: true };
    },
  });
// Payments go through the chat client; transfers through the middleware, their tool guarded by `guardServerTools`.
const chat = createChatClient({ model, tools: { pay: approvedTool() }, maxRetries: 0, advisors: [messageMemoryAdvisor({ memory })] });
const middlewareModel = wrapLanguageModel({ model, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) });
const transfer = approvedTool();

/** One turn through the chat client, streamed as a route would; its outcome, or the turn's error. */
async function turn(input: Parameters<typeof chat.stream>[0]): Promise<string> {
  const result = chat.stream(input);
  await result.consumeStream();
  const response = await result.response;
  if (response.outcome !== 'finished') throw response.error ?? new Error(response.outcome);
  return response.outcome;
}

/**
 * One request through the middleware, as a route with `streamText` would make it; `finished`, or its first error. The
 * approval it asks for is logged: the middleware never sees it (`streamText` adds it above the model), so it is not in
 * memory, and the writers that race to approve the call find it in the log, as a page has it in its own messages.
 */
async function middlewareTurn(
  entry: Record<string, unknown>,
  conversationId: string,
  input: { prompt: string } | { messages: ModelMessage[] },
): Promise<string> {
  const errors: unknown[] = [];
  const result = streamText({
    model: middlewareModel,
    tools: guardServerTools({ transfer }, { memory, conversationId }),
    ...input,
    maxRetries: 0,
    providerOptions: { advisors: { conversationId } },
    onError: ({ error }) => void errors.push(error),
  });
  await result.consumeStream();
  if (errors.length > 0) throw errors[0];
  for (const message of (await result.response).messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content)
      if (part.type === 'tool-approval-request') log({ ...entry, op: 'approval-asked', approvalId: part.approvalId });
  }
  return 'finished';
}

/** The approval id the middleware request that made the call was given, from the log. */
function askedApprovalId(toolCallId: string): string | undefined {
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes(toolCallId) || !line.includes('approval-asked')) continue;
    const entry = JSON.parse(line) as { callId?: string; approvalId?: string };
    if (entry.callId === toolCallId) return entry.approvalId;
  }
  return undefined;
}

/** The messages with the approval request next to its call, as the page that asked has them. */
function withApprovalRequest(messages: readonly ModelMessage[], toolCallId: string, approvalId: string): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    if (!message.content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId)) return message;
    if (message.content.some((part) => part.type === 'tool-approval-request')) return message;
    return { ...message, content: [...message.content, { type: 'tool-approval-request', approvalId, toolCallId }] };
  });
}

async function timed(entry: Record<string, unknown>, work: () => Promise<string>) {
  const t0 = typeof entry.t0 === 'number' ? entry.t0 : Date.now();
  let outcome: string;
  try {
    outcome = await work();
  } catch (error) {
    outcome = `error: ${error instanceof Error ? error.message.slice(0, 160) : String(error)}`;
  }
  log({ ...entry, outcome, t0, t1: Date.now() });
  return outcome;
}

const lastRead = new Map<string, MemoryEntry[]>();
for (let index = 0; index < operations; index++) {
  const conversationId = pick(SOAK_CONVERSATIONS);
  const roll = random();
  if (roll < 0.6) {
    const key = `w${writer}-${index}`;
    const messages: ModelMessage[] = [
      { role: 'user', content: key },
      { role: 'assistant', content: `re ${key}` },
    ];
    const append = () => memory.appendTurn(conversationId, messages, { key, metadata: { turnId: key } }).then((result) => result.outcome);
    const outcome = await timed({ op: 'append', conversationId, key }, append);
    // A client that saw an error, or resends anyway, sends the same turn again.
    if (outcome.startsWith('error') || random() < 0.1) await timed({ op: 'append', conversationId, key, resend: true }, append);
  } else if (roll < 0.63) {
    await timed({ op: 'clear', conversationId }, () => memory.clear(conversationId).then(() => 'cleared'));
  } else if (roll < 0.7) {
    const callId = `call-w${writer}-${index}`;
    if (random() < 0.5) {
      await timed({ op: 'ask-payment', conversationId, callId }, () =>
        turn({ prompt: `pay w${writer}-${index}`, context: { conversationId } }),
      );
    } else {
      await timed({ op: 'ask-payment', conversationId, callId, middleware: true }, () =>
        middlewareTurn({ conversationId, callId }, conversationId, { prompt: `transfer w${writer}-${index}` }),
      );
    }
  } else if (roll < 0.8) {
    // Retry (regenerate) or edit a turn some writer appended: it and every turn after it are replaced. Half of them
    // come from a stale page, one that shows the conversation as this writer last read it.
    const t0 = Date.now();
    const fresh = await memory.read(conversationId).catch(() => []);
    const history = random() < 0.5 ? (lastRead.get(conversationId) ?? fresh) : fresh;
    lastRead.set(conversationId, fresh);
    const targets = history.filter((entry) => entry.message.role === 'user' && /^w\d+-\d+$/.test(entry.metadata.turnId));
    if (targets.length === 0) continue;
    const target = pick(targets).metadata.turnId;
    const edit = random() < 0.5;
    const text = edit ? `edit-w${writer}-${index}` : target;
    await timed({ op: edit ? 'edit' : 'regenerate', conversationId, target, text, t0 }, () =>
      turn({
        messages: [{ id: target, role: 'user', parts: [{ type: 'text', text }] }],
        ...(edit ? { trigger: 'submit-message', messageId: target } : { trigger: 'regenerate-message' }),
        context: { conversationId },
      }),
    );
  } else {
    // Every writer approves whatever payment or transfer it finds waiting, on the path that asked for it: writers race
    // for the same approvals.
    const history = await memory.read(conversationId, { keepOpenToolCalls: true }).catch(() => []);
    const messages = history.map((entry) => entry.message);
    const waiting = openToolCalls(messages)
      .map((call) => ({ ...call, approvalId: call.approvalId ?? askedApprovalId(call.toolCallId) }))
      .filter((call) => call.approvalId !== undefined);
    if (waiting.length === 0) continue;
    const call = waiting[0];
    const approved: ModelMessage[] = [
      ...withApprovalRequest(messages, call.toolCallId, call.approvalId!),
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: call.approvalId!, approved: true }] },
    ];
    await timed({ op: 'approve', conversationId, callId: call.toolCallId, middleware: call.toolName === 'transfer' }, () =>
      call.toolName === 'transfer'
        ? middlewareTurn({ conversationId, callId: call.toolCallId }, conversationId, { messages: approved })
        : turn({ messages: approved, context: { conversationId } }),
    );
  }
}
await store.close();
await redisClient?.close().catch(() => undefined);
