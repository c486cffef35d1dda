/** Parts read one at a time, as a stream's reader gives them. */
export interface PartSource<T> {
  read(): Promise<ReadableStreamReadResult<T>>;
  cancel(reason?: unknown): Promise<void>;
  /** `read` in its steps, when it wraps a stream's reader: see {@link ReadSteps}. */
  readonly steps?: ReadSteps<T>;
}

/**
 * The steps of a `read` that wraps a reader, for a consumer that reads every part: it awaits `reader` itself and hands
 * what it got to `accept`, so a part costs the reader's promise alone instead of that and the wrapper's (a third of a
 * part's cost through the chat client).
 */
export interface ReadSteps<T> {
  /** What `read` would return without reading (a part queued, or the end), else `undefined`. */
  ready(): ReadableStreamReadResult<T> | undefined;
  readonly reader: ReadableStreamDefaultReader<T>;
  /** What `read` returns for a part the reader gave. */
  accept(part: T): ReadableStreamReadResult<T>;
  /** What `read` returns once the reader is done. */
  end(): Promise<ReadableStreamReadResult<T>>;
  /** What `read` returns when the reader failed. */
  recover(error: unknown): Promise<ReadableStreamReadResult<T>>;
}

/** One `read` made of `steps`: a part ready without reading, else the reader's next part accepted, its end, or its failure recovered. */
export async function readBySteps<T>(steps: ReadSteps<T>): Promise<ReadableStreamReadResult<T>> {
  const ready = steps.ready();
  if (ready !== undefined) return ready;
  let next: ReadableStreamReadResult<T>;
  try {
    next = await steps.reader.read();
  } catch (error) {
    return steps.recover(error);
  }
  return next.done ? steps.end() : steps.accept(next.value);
}

/** Anything that carries a stream of parts, such as an `AdvisedStream`. */
export interface WithStream<T> {
  readonly stream: ReadableStream<T>;
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

/** The source of lazily built streams, and its stream once something asked for it. */
interface PartCell<T> {
  readonly source: PartSource<T>;
  stream: ReadableStream<T> | undefined;
  /** A consumer took the source itself. */
  claimed: boolean;
}

/**
 * `{ stream, response }` whose stream is built from `source` only when first
 * asked for: a consumer that takes the parts through {@link partSourceOf}
 * never builds it (setting up a ReadableStream costs microseconds, on every
 * turn). `stream` is a getter on the prototype, which a spread copy would
 * lose: {@link withPlainStream} before handing one to code outside the library.
 */
export class LazyPartStream<T, R> implements WithStream<T> {
  readonly #cell: PartCell<T>;
  readonly response: R;

  constructor(source: PartSource<T> | PartCell<T>, response: R) {
    this.#cell = 'read' in source ? { source, stream: undefined, claimed: false } : source;
    this.response = response;
  }

  get stream(): ReadableStream<T> {
    const cell = this.#cell;
    if (cell.stream === undefined) {
      cell.stream = streamOfParts(cell.source);
      // The source already has its consumer: the stream is locked, as one with a reader would be.
      if (cell.claimed) cell.stream.getReader();
    }
    return cell.stream;
  }

  /** The same parts with another response; a stream not built yet stays unbuilt. */
  withResponse<S>(response: S): LazyPartStream<T, S> {
    return new LazyPartStream(this.#cell, response);
  }

  /** The source itself, for the stream's one consumer: a stream built already is locked, one built later comes locked. */
  claim(): PartSource<T> {
    this.#cell.stream?.getReader();
    this.#cell.claimed = true;
    return this.#cell.source;
  }
}

/** `holder`'s parts with another response; a lazily built stream stays unbuilt. */
export function withResponse<T, R>(holder: WithStream<T>, response: R): WithStream<T> & { readonly response: R } {
  return holder instanceof LazyPartStream ? holder.withResponse(response) : { stream: holder.stream, response };
}

/** `holder` as a plain object, safe to spread, for code outside the library. */
export function withPlainStream<T, R>(holder: WithStream<T> & { readonly response: R }): WithStream<T> & { readonly response: R } {
  return holder instanceof LazyPartStream ? { stream: holder.stream, response: holder.response } : holder;
}

/**
 * The parts of `holder`'s stream, read directly from their source when the
 * stream came from {@link streamOfParts} or {@link LazyPartStream} and was
 * never read. Either way the stream is locked: it has one consumer.
 */
export function partSourceOf<T>(holder: WithStream<T>): PartSource<T> {
  if (holder instanceof LazyPartStream) return (holder as LazyPartStream<T, unknown>).claim();
  const reader = holder.stream.getReader();
  return (sources.get(holder.stream) as PartSource<T> | undefined) ?? reader;
}
