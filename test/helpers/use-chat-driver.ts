import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { AbstractChat, DefaultChatTransport, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from 'ai';

/** A route handler as Next.js App Router calls it: a web `Request` in, a web `Response` out. */
export type RouteHandler = (request: Request) => Promise<Response>;

/** Serves `handler` at `http://127.0.0.1:<port>/api/chat`, turning node requests into real `Request` objects. */
export async function startRoute(handler: RouteHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (incoming, outgoing) => {
    try {
      const response = await handler(toRequest(incoming));
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) outgoing.end();
      else Readable.fromWeb(response.body as never).pipe(outgoing);
    } catch (error) {
      outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toRequest(incoming: IncomingMessage): Request {
  return new Request(`http://127.0.0.1${incoming.url ?? '/'}`, {
    method: incoming.method,
    headers: incoming.headers as Record<string, string>,
    body: incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : (Readable.toWeb(incoming) as ReadableStream),
    duplex: 'half',
  } as RequestInit);
}

class PlainChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[];
  constructor(messages: UIMessage[] = []) {
    this.messages = messages;
  }
  pushMessage = (message: UIMessage) => void this.messages.push(message);
  popMessage = () => void this.messages.pop();
  replaceMessage = (index: number, message: UIMessage) => void (this.messages[index] = message);
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's own chat client (the class `useChat` is built on) over HTTP:
 * the same request bodies, resends, `addToolOutput`, `addToolApprovalResponse`
 * and `sendAutomaticallyWhen` as a React page, without React.
 */
export class TestChat extends AbstractChat<UIMessage> {
  constructor({ api, ...init }: Omit<ChatInit<UIMessage>, 'transport'> & { api: string }) {
    // Messages given at start (a chat restored after a reload) live in the state, as useChat keeps them.
    super({ ...init, transport: new DefaultChatTransport({ api }), state: new PlainChatState(init.messages) });
  }

  /** Resolves once the chat is idle: no request in flight and none about to be sent automatically. */
  async settled(): Promise<void> {
    for (let idle = 0; idle < 3;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      idle = this.status === 'submitted' || this.status === 'streaming' ? 0 : idle + 1;
    }
    if (this.status === 'error') throw this.error;
  }
}
