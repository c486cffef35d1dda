import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** When the server saw a request and wrote its first and last chunk (`performance.now()`, the bench's own clock). */
export interface ServedRequest {
  readonly model: string;
  readonly messages: readonly { role: string; content: unknown }[];
  readonly received: number;
  firstChunk: number;
  ended: number;
}

export interface LoopbackOpenAI {
  readonly baseURL: string;
  /** The requests served since the last call, in order (their times on this process's clock), and forgets them. */
  take(): Promise<ServedRequest[]>;
  close(): Promise<void>;
}

/**
 * Where the server runs: `in-process` (the default) shares the event loop with the frameworks it serves, so every
 * microsecond of a client's work while its request is out delays the answer as much; `process` runs it in a child
 * process of its own, as a model server is a machine of its own, so that work done while waiting overlaps the server's.
 */
export type LoopbackPlacement = 'in-process' | 'process';

/**
 * A minimal OpenAI-compatible chat-completions server on loopback, the model every framework calls: it streams the
 * same answer, one word per chunk, to every request. The first chunk goes out at once and the rest on the next turn
 * of the event loop, so the first token arrives before the last. It does no validation (each framework's own
 * provider is what is measured), so its cost is the same small constant for all.
 */
export async function startLoopbackOpenAI(answer: string): Promise<LoopbackOpenAI> {
  const words = answer.split(/(?<= )/);
  const requests: ServedRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        messages: ServedRequest['messages'];
        stream_options?: { include_usage?: boolean };
      };
      const served: ServedRequest = { model: body.model, messages: body.messages, received: performance.now(), firstChunk: 0, ended: 0 };
      requests.push(served);
      const chunk = (delta: object, finishReason: string | null = null) =>
        `data: ${JSON.stringify({
          id: 'chatcmpl-bench',
          object: 'chat.completion.chunk',
          created: 0,
          model: body.model,
          choices: [{ index: 0, delta, finish_reason: finishReason }],
        })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(chunk({ role: 'assistant', content: words[0] }));
      served.firstChunk = performance.now();
      setImmediate(() => {
        let rest = words
          .slice(1)
          .map((word) => chunk({ content: word }))
          .join('');
        rest += chunk({}, 'stop');
        if (body.stream_options?.include_usage) {
          const usage = { prompt_tokens: 1000, completion_tokens: words.length, total_tokens: 1000 + words.length };
          rest += `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [], usage })}\n\n`;
        }
        response.end(`${rest}data: [DONE]\n\n`);
        served.ended = performance.now();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    take: async () => requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The placement `MODEL_SERVER` names (`in-process` when unset); exits naming the variable on any other value. */
export function loopbackPlacementFromEnv(bench: string): LoopbackPlacement {
  const placement = process.env.MODEL_SERVER ?? 'in-process';
  if (placement === 'in-process' || placement === 'process') return placement;
  console.error(`${bench}: MODEL_SERVER takes in-process or process, not ${JSON.stringify(placement)}`);
  process.exit(1);
}

/** The server, where `placement` says. */
export function startLoopbackOpenAIAt(placement: LoopbackPlacement, answer: string): Promise<LoopbackOpenAI> {
  return placement === 'process' ? startLoopbackOpenAIProcess(answer) : startLoopbackOpenAI(answer);
}

/** What the child process and its parent say to each other. */
type ChildMessage = { readonly baseURL: string } | { readonly requests: ServedRequest[] };

/** The request with its times moved by `shift` (from one clock to another); a time not reached yet (0) stays 0. */
function shiftedTimes(request: ServedRequest, shift: number): ServedRequest {
  const moved = (time: number) => (time === 0 ? 0 : time + shift);
  return { ...request, received: moved(request.received), firstChunk: moved(request.firstChunk), ended: moved(request.ended) };
}

/**
 * {@link startLoopbackOpenAI} in a child process (see {@link LoopbackPlacement}). Times cross between the two clocks
 * through the epoch (`performance.timeOrigin`), within a microsecond.
 */
async function startLoopbackOpenAIProcess(answer: string): Promise<LoopbackOpenAI> {
  const child = fork(fileURLToPath(import.meta.url), [answer], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [ready] = (await once(child, 'message')) as [ChildMessage];
  if (!('baseURL' in ready)) throw new Error('the loopback server process did not start');
  return {
    baseURL: ready.baseURL,
    async take() {
      const replied = once(child, 'message');
      child.send('take');
      const [{ requests }] = (await replied) as [{ requests: ServedRequest[] }];
      return requests.map((request) => shiftedTimes(request, -performance.timeOrigin));
    },
    async close() {
      const exited = once(child, 'exit');
      child.send('close');
      await exited;
    },
  };
}

/**
 * Started with `fork`: serve, then answer the parent's `take` with the requests served (times on the epoch) and `close`;
 * a parent gone (the bench failed or was stopped) takes the server with it.
 */
async function serveForParent(answer: string): Promise<void> {
  const server = await startLoopbackOpenAI(answer);
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (message) => {
    if (message === 'take') {
      const requests = (await server.take()).map((request) => shiftedTimes(request, performance.timeOrigin));
      process.send!({ requests } satisfies ChildMessage);
    } else if (message === 'close') {
      await server.close();
      process.disconnect?.();
    }
  });
  process.send!({ baseURL: server.baseURL } satisfies ChildMessage);
}

if (process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) await serveForParent(process.argv[2]!);
