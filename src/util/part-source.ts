/** Parts read one at a time, as a stream's reader gives them. */
export interface PartSource<T> {
  read(): Promise<ReadableStreamReadResult<T>>;
  cancel(reason?: unknown): Promise<void>;
}

const sources = new WeakMap<ReadableStream<unknown>, PartSource<unknown>>();

/**
 * A stream over `source` that reads nothing until asked. A consumer that
 * would only take its parts one by one can take `source` itself through
 * {@link partSourceOf}, so that the parts skip one stream hop.
 */
export function streamOfParts<T>(source: PartSource<T>): ReadableStream<T> {
  const stream = new ReadableStream<T>(
    {
      async pull(controller) {
        const next = await source.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  sources.set(stream, source);
  return stream;
}

/**
 * The parts of `stream`, read directly from its source when it came from
 * {@link streamOfParts} and was never read. Either way `stream` is locked:
 * it has one consumer.
 */
export function partSourceOf<T>(stream: ReadableStream<T>): PartSource<T> {
  const reader = stream.getReader();
  return (sources.get(stream) as PartSource<T> | undefined) ?? reader;
}
