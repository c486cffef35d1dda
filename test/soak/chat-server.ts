/**
 * One app process of the multi-process soak: a `useChat` route through the chat client (`/api/chat`) and one through
 * `streamText` with the middleware (`/api/middleware`), on a Redis or PostgreSQL memory store shared with the other
 * processes. Prints its port on stdout; every run of a server tool is written as a JSON line to the log file.
 */
import { appendFileSync } from 'node:fs';
import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  convertToModelMessages,
  isStepCount,
  jsonSchema,
  simulateReadableStream,
  streamText,
  tool,
  wrapLanguageModel,
  type UIMessage,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { messageMemoryAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, chatRoute, createChatClient, guardServerTools } from '../../src/index.ts';
import { createChatMemory, type ChatMemoryStore } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { startRoute } from '../helpers/use-chat-driver.ts';

const [backend, namespace, logFile] = process.argv.slice(2);

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const finish = (reason: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason },
  usage,
});
const toolOf: Record<string, string> = { weather: 'weather', where: 'getLocation', delete: 'deleteNotes' };

/**
 * Deterministic, whichever process answers: a tool's result is answered with text naming it; a question starting with
 * `weather`, `where` or `delete` calls that tool (its call id from the question and the prompt's length, the same in
 * every run); anything else is answered `re: <question> (<messages seen>)`, so an answer shows what history it saw.
 */
const model = new MockLanguageModelV4({
  doStream: async ({ prompt }: { prompt: LanguageModelV4Prompt }) => {
    const last = prompt.at(-1)!;
    const text = last.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
    const toolName = last.role === 'user' ? toolOf[text.split(' ')[0]!] : undefined;
    const answer =
      last.role === 'tool'
        ? `done: ${last.content.map((part) => (part.type === 'tool-result' ? part.toolName : part.type)).join(',')}`
        : `re: ${text} (${prompt.length})`;
    const chunks: LanguageModelV4StreamPart[] = toolName
      ? [
          { type: 'tool-call', toolCallId: `call-${text.replaceAll(' ', '-')}-${prompt.length}`, toolName, input: '{}' },
          finish('tool-calls'),
        ]
      : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: answer }, { type: 'text-end', id: 't' }, finish('stop')];
    return { stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...chunks] }) };
  },
});

const store: ChatMemoryStore & { close(): Promise<void> } =
  backend === 'redis'
    ? createRedisChatMemoryStore({ url: process.env.REDIS_URL, keyPrefix: namespace })
    : createPostgresChatMemoryStore({ connectionString: process.env.DATABASE_URL, tableName: namespace });
const memory = createChatMemory({ store, window: false });

const noInput = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const serverTool = (name: string, needsApproval: boolean) =>
  tool({
    inputSchema: noInput,
    needsApproval,
    execute: async (_input, { toolCallId }) => {
      appendFileSync(logFile, `${JSON.stringify({ tool: name, toolCallId, pid: process.pid })}\n`);
      return { [name]: 'ok' };
    },
  });
const serverTools = { weather: serverTool('weather', false), deleteNotes: serverTool('deleteNotes', true) };
const getLocation = tool({ description: "The user's location, from the browser", inputSchema: noInput });

const chat = createChatClient({
  model,
  tools: { ...serverTools, getLocation },
  maxRetries: 0,
  advisors: [messageMemoryAdvisor({ memory })],
});
const middlewareModel = wrapLanguageModel({
  model,
  middleware: advisorMiddleware({ advisors: [messageMemoryAdvisor({ memory })], clientTools: ['getLocation'] }),
});

const chatHandler = chatRoute({
  handle: ({ id, messages, trigger, messageId }) => chat.stream({ messages, trigger, messageId, context: { conversationId: id } }),
});
const middlewareHandler = chatRoute({
  handle: async ({ id, messages, trigger, messageId }) => {
    if (id === undefined) return new Response('the chat id names the conversation', { status: 400 });
    const last = messages.at(-1)!;
    // The facts a regeneration or an edit needs, from the user message the request ends with (docs/conversations.md).
    const turn = last.role === 'user' ? { turnId: last.id, regenerate: trigger === 'regenerate-message' || messageId === last.id } : {};
    return streamText({
      model: middlewareModel,
      tools: { ...guardServerTools(serverTools, { memory, conversationId: id }), getLocation },
      messages: await convertToModelMessages(messages as UIMessage[]),
      providerOptions: { advisors: { conversationId: id, ...turn } },
      stopWhen: isStepCount(5),
      maxRetries: 0,
    }).toUIMessageStreamResponse();
  },
});

const route = await startRoute((request) =>
  new URL(request.url).pathname === '/api/middleware' ? middlewareHandler(request) : chatHandler(request),
);
process.stdout.write(`${new URL(route.url).port}\n`);
process.on('SIGTERM', () => {
  void route
    .close()
    .then(() => store.close())
    .finally(() => process.exit(0));
});
