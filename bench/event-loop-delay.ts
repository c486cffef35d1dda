/**
 * Event-loop delay during chat turns whose stored history holds one huge
 * (50 MB) message, next to the same turns over an ordinary history, with a
 * token window. A window must not re-read or re-count what it will not send:
 * the huge message is older than the window, so a turn should cost the same
 * either way. Runs on the in-memory store and, when REDIS_URL is set, on Redis.
 *
 * Then the worst bodies a client can post under `chatRoute`'s default limits,
 * through a chat client with the safeguard on (`bench/worst-bodies.ts`), three
 * rounds: each must be answered or refused without stalling the event loop.
 *
 * Run: npx tsx bench/event-loop-delay.ts   (HUGE_MB=50 TURNS=20 to change the size)
 */
import { messageMemoryAdvisor } from '../advisors/index.ts';
import { createChatClient } from '../src/index.ts';
import { type ChatMemoryStore, createChatMemory, createInMemoryChatMemoryStore, createTokenWindow } from '../src/memory/index.ts';
import { createRedisChatMemoryStore } from '../src/redis/index.ts';
import { mockModel, textParts } from '../test/helpers/mock-models.ts';
import { printMachineFacts } from './machine-facts.ts';
import { watchEventLoop } from './watch-event-loop.ts';
import { measureWorstBodies } from './worst-bodies.ts';

const HUGE_MB = Number(process.env.HUGE_MB ?? 50);
const TURNS = Number(process.env.TURNS ?? 20);

async function measure(store: ChatMemoryStore, withHugeMessage: boolean) {
  const memory = createChatMemory({ store, window: createTokenWindow({ maxTokens: 4_000 }) });
  const conversationId = `${withHugeMessage ? 'huge' : 'ordinary'}-${crypto.randomUUID()}`;
  const filler = withHugeMessage ? 'lorem ipsum '.repeat((HUGE_MB * 1_000_000) / 12) : 'lorem ipsum '.repeat(100);
  await memory.appendTurn(conversationId, [
    { role: 'user', content: filler },
    { role: 'assistant', content: 'Noted.' },
  ]);
  for (let turn = 0; turn < 30; turn++) {
    await memory.appendTurn(conversationId, [
      { role: 'user', content: `Question ${turn}?` },
      { role: 'assistant', content: `Answer ${turn}.` },
    ]);
  }
  const chat = createChatClient({ model: mockModel([textParts(['Fine.'])]), advisors: [messageMemoryAdvisor({ memory })] });
  await chat.generate({ prompt: 'warm up', context: { conversationId } });

  const lateness = watchEventLoop();
  let busy = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    const turnStarted = performance.now();
    await chat.generate({ prompt: `Turn ${turn}`, context: { conversationId } });
    busy += performance.now() - turnStarted;
    // Let timers run between turns, as a server's other requests would.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const perTurn = busy / TURNS;
  const delays = lateness.stop();
  await memory.clear(conversationId);
  return {
    store: store.name,
    history: withHugeMessage ? `one ${HUGE_MB} MB message + 30 turns` : '31 ordinary turns',
    perTurnMs: perTurn.toFixed(1),
    maxEventLoopDelayMs: Math.max(0, ...delays).toFixed(1),
  };
}

printMachineFacts();
const stores: Array<ChatMemoryStore & { close?: () => Promise<void> }> = [createInMemoryChatMemoryStore()];
if (process.env.REDIS_URL) stores.push(createRedisChatMemoryStore({ keyPrefix: `ai-advisors-bench:${crypto.randomUUID()}` }));
else console.warn('REDIS_URL is not set: skipping Redis.');
const rows = [];
for (const store of stores) {
  const ordinary = await measure(store, false);
  const huge = await measure(store, true);
  rows.push(ordinary, huge);
  console.log(`${store.name}: turn time ratio (huge / ordinary): ${(Number(huge.perTurnMs) / Number(ordinary.perTurnMs)).toFixed(2)}x`);
  await store.close?.();
}
console.table(rows);

console.log('Worst request bodies through chatRoute with the safeguard on (3 rounds):');
for (let round = 0; round < 3; round++) console.table(await measureWorstBodies());
