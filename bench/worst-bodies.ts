/**
 * The worst request bodies under `chatRoute`'s default limits (4 MB, 10,000
 * parts, 250,000 JSON values, 100 levels), each posted through `chatRoute`
 * to a chat client with the safeguard on: how long each takes to be answered
 * or refused, and how long it blocks the event loop.
 */
import { safeguardAdvisor } from '../advisors/index.ts';
import { chatRoute, createChatClient } from '../src/index.ts';
import { mockModel, textParts } from '../test/helpers/mock-models.ts';
import { watchEventLoop } from './watch-event-loop.ts';

const user = (id: string, parts: unknown[]) => ({ id, role: 'user', parts });
const text = (value: string) => ({ type: 'text', text: value });
const nested = (levels: number) => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
};

/** Each body as `useChat` would post it: a chat id and the messages. */
export const WORST_BODIES: Record<string, () => unknown> = {
  'ordinary text, 3.9 MB': () => ({
    id: 'c',
    messages: [0, 1, 2, 3].map((index) => user(`m${index}`, [text('lorem ipsum '.repeat(81_000))])),
  }),
  'U+FDFA x 990k (expands 18-fold)': () => ({ id: 'c', messages: [user('m', [text('\uFDFA'.repeat(990_000))])] }),
  'mixed-script words x 3M chars': () => ({
    id: 'c',
    messages: [0, 1, 2].map((index) => user(`m${index}`, [text('aж '.repeat(330_000))])),
  }),
  '9,999 one-letter parts': () => ({
    id: 'c',
    messages: [
      user(
        'm',
        Array.from({ length: 9_999 }, () => text('x')),
      ),
    ],
  }),
  '1,250 data parts, 96 levels deep': () => ({
    id: 'c',
    messages: [user('m', [text('hi'), ...Array.from({ length: 1_250 }, () => ({ type: 'data-x', data: nested(95) }))])],
  }),
  '124,000 empty objects (248,000 JSON values)': () => ({
    id: 'c',
    messages: [user('m', [text('hi'), { type: 'data-x', data: Array.from({ length: 124_000 }, () => ({})) }])],
  }),
};

/** Posts each body once after a warm-up; returns its status, time and the event loop's longest stall meanwhile. */
export async function measureWorstBodies() {
  const chat = createChatClient({
    model: mockModel(Array.from({ length: 50 }, () => textParts(['ok']))),
    advisors: [safeguardAdvisor({ blockedTerms: ['bomb', 'ransomware'], answer: 'Blocked.' })],
  });
  const POST = chatRoute({ handle: ({ messages }) => chat.stream({ messages }), onError: () => {} });
  const post = async (body: string) => (await POST(new Request('http://localhost/api/chat', { method: 'POST', body }))).status;
  await post(JSON.stringify({ id: 'w', messages: [user('w', [text('warm up')])] }));
  const rows = [];
  for (const [name, build] of Object.entries(WORST_BODIES)) {
    const body = JSON.stringify(build());
    const lateness = watchEventLoop(1);
    const started = performance.now();
    const status = await post(body);
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stalls = lateness.stop();
    rows.push({
      body: name,
      MB: (Buffer.byteLength(body) / 1e6).toFixed(2),
      status,
      ms: ms.toFixed(0),
      maxEventLoopDelayMs: Math.max(0, ...stalls).toFixed(0),
    });
  }
  return rows;
}
