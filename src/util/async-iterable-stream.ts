import { createAsyncIterableStream } from 'ai/internal';

export type AsyncIterableStream<T> = ReturnType<typeof createAsyncIterableStream<T>>;

/**
 * A fresh stream with one consumer, made iterable with `for await`. Where the
 * runtime's streams are async iterable already (Node, Deno, Bun), the stream
 * itself: the AI SDK's wrapper pipes through one more stream to get there.
 */
export function asyncIterableStream<T>(stream: ReadableStream<T>): AsyncIterableStream<T> {
  return Symbol.asyncIterator in stream ? (stream as AsyncIterableStream<T>) : createAsyncIterableStream(stream);
}
