import { createOpenAI } from '@ai-sdk/openai';
import path from 'node:path';
import { createChatClient, type ChatClient } from 'ai-advisors';
import { createChatMemory, createInMemoryChatMemoryStore, toUIMessages } from 'ai-advisors/memory';
import { messageMemoryAdvisor, metadataPassthroughAdvisor } from 'ai-advisors/advisors';
import { resolveDemoModel } from 'ai-advisors/offline';
import { stepCountIs } from 'ai';
import { chatTools } from './chat-tools.ts';
import { withOfflineToolCalls } from './offline-tool-model.ts';
import { createSectionRagAdvisor } from './section-retrieval.ts';

let client: Promise<{ chat: ChatClient; label: string }> | undefined;

/** The conversations of this server process (in memory here; use the Redis or PostgreSQL store in production). */
const store = createInMemoryChatMemoryStore();
/** The whole of a conversation, for restoring it in the page, and the user's threads, for the sidebar. */
export const fullHistory = createChatMemory({ store, window: false });

/** A chat id the page may use: a random UUID, as the page makes them. */
export function isConversationId(id: unknown): id is string {
  return typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}

/**
 * The memory key of the user's chat: the chat id the page chose, scoped on the server to the user the server knows
 * (see `lib/demo-user.ts`), so that one user can never read or extend another's conversation.
 */
export function conversationKey(userId: string, chatId: string): string {
  return `${userId}:${chatId}`;
}

/** The user's stored chat as `useChat` messages (empty when it does not exist). */
export async function readConversation(userId: string, chatId: string) {
  return toUIMessages(await fullHistory.read(conversationKey(userId, chatId), { keepOpenToolCalls: true }));
}

/**
 * The app's chat client, built once per server process: memory, rerank RAG over the sample
 * documents and metadata passthrough. Answers with OpenAI when `OPENAI_API_KEY`
 * or `OPENAI_BASE_URL` is set, otherwise with the offline stand-in model.
 */
export function getChatClient(): Promise<{ chat: ChatClient; label: string }> {
  client ??= buildChatClient();
  return client;
}

async function buildChatClient() {
  const { model, embeddingModel, label } = resolveDemoModel({ env: process.env, createOpenAI });
  const rag = await createSectionRagAdvisor({ dataDirectory: path.join(process.cwd(), '..', 'data'), embeddingModel });
  const chat = createChatClient({
    // The offline model calls the example's tools when asked to; a real model decides for itself.
    model: model.provider === 'offline' ? withOfflineToolCalls(model) : model,
    tools: chatTools,
    // A server tool's result goes back to the model in the same request.
    stopWhen: stepCountIs(3),
    // AI_ADVISORS_TELEMETRY=1: OpenTelemetry spans for each turn (ai_advisors.turn and the AI SDK's), to the tracer
    // provider the app registers (instrumentation.ts). Inputs and outputs are not recorded unless asked for.
    ...(process.env.AI_ADVISORS_TELEMETRY === '1' && {
      telemetry: { functionId: 'nextjs-example-chat', recordInputs: false, recordOutputs: false },
    }),
    instructions: 'You answer questions about the provided documents. Cite them as [1], [2].',
    advisors: [
      metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }),
      // Outside the metadata passthrough (order -3000 < -2500), memory stores the turn with all the metadata the page
      // was sent (latency, tokens) and its sources, so that a reload shows them as they streamed.
      messageMemoryAdvisor({ memory: createChatMemory({ store }), order: -3000 }),
      rag,
    ],
  });
  return { chat, label };
}
