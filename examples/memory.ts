/**
 * Chat memory across turns: the follow-up "How old is he?" can only be answered
 * when the earlier turn is sent with it.
 *
 *   npx tsx examples/memory.ts
 *
 * The memory advisor reads the conversation's history before each turn and
 * stores the turn (the user's own words and the answer) after it. Memory is
 * kept per conversation id, passed in the call's context. The store here is in
 * memory; Redis and PostgreSQL stores live under 'ai-advisors/redis' and
 * 'ai-advisors/postgres'. In your own project, import from 'ai-advisors'.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { createChatClient } from '../src/index.ts';
import { createChatMemory, createMessageWindow } from '../src/memory/index.ts';
import { messageMemoryAdvisor } from '../advisors/index.ts';
import { resolveDemoModel } from '../src/offline/index.ts';
import { isEntryPoint, writeToStdout, type ExampleOptions } from './example-options.ts';

export async function main({ env = process.env, write = writeToStdout }: ExampleOptions = {}): Promise<{
  withMemory: string;
  withoutMemory: string;
}> {
  const { model, label } = resolveDemoModel({ env, createOpenAI });
  write(`Model: ${label}\n`);

  // Keep the last 20 messages of each conversation (whole turns; tool calls stay with their results).
  const memory = createChatMemory({ window: createMessageWindow({ maxMessages: 20 }) });
  const chat = createChatClient({ model, advisors: [messageMemoryAdvisor({ memory })] });
  const conversation = { conversationId: 'grandfather-chat' };

  const ask = async (client: typeof chat, question: string, context?: Record<string, string>) => {
    write(`You: ${question}\nAssistant: `);
    const result = client.stream({ prompt: question, context });
    for await (const text of result.textStream) write(text);
    write('\n');
    return result.text;
  };

  write('\n-- with memory --\n');
  await ask(chat, 'My grandfather Tomás was born on 2 March 1950 in Porto, and he still sails every summer.', conversation);
  const withMemory = await ask(chat, 'How old is he?', conversation);
  write(`(stored messages in "${conversation.conversationId}": ${(await memory.read(conversation.conversationId)).length})\n`);

  // The same question to a client without the memory advisor: "he" refers to nothing.
  write('\n-- without memory --\n');
  const withoutMemory = await ask(createChatClient({ model }), 'How old is he?');
  return { withMemory, withoutMemory };
}

if (isEntryPoint(import.meta.url)) await main();
