import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** Every request, in order; the bench reads the ones of the turn it just ran. */
  readonly requests: ServedRequest[];
  close(): Promise<void>;
}

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
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
