import { partSourceOf, type PartSource, type WithStream } from '../util/part-source.ts';

/**
 * Reads one source stream once and serves any number of subscribers, each of
 * which sees every part from the start (like the AI SDK's stream results).
 * When every external subscriber has cancelled (e.g. the HTTP client went
 * away), the source is cancelled so that the model call is aborted.
 */
export interface ReplayBroadcast<T> {
  /**
   * Reads the source to its end without a subscriber (no stream is built, and it does not keep the source alive on its
   * own): resolves once the source ended, failed or was cancelled.
   */
  drain(): Promise<void>;
  subscribe(): ReadableStream<T>;
  /** A subscriber that receives what `select` enqueues for each part: a filtered view without a second stream to pipe through. */
  subscribe<U>(options: { select: (part: T, controller: ReadableStreamDefaultController<U>) => void }): ReadableStream<U>;
}

export interface ReplayBroadcastOptions<T> {
  /** Called for each source part; returns false to hold the part back from subscribers. */
  readonly admit?: (part: T) => boolean;
  /** Called once the source has ended; the parts it returns are sent before subscribers close. */
  readonly beforeClose?: () => Promise<readonly T[]>;
}

export function createReplayBroadcast<T>(
  source: () => Promise<WithStream<T>>,
  { admit = () => true, beforeClose = async () => [] }: ReplayBroadcastOptions<T> = {},
): ReplayBroadcast<T> {
  const parts: T[] = [];
  // An array, not a Set: every part is delivered to each, and iterating a Set allocates an iterator per part.
  let subscribers: Subscriber<T>[] = [];
  let subscriberCount = 0;
  let finished: { error?: unknown } | undefined;
  let reader: PartSource<T> | undefined;
  let pumping = false;
  let cancelled = false;
  const ended = Promise.withResolvers<void>();

  const pump = async () => {
    pumping = true;
    try {
      reader = partSourceOf(await source());
      if (cancelled) {
        await reader.cancel();
        finish({});
        return;
      }
      const { steps } = reader;
      for (;;) {
        let next = steps?.ready();
        if (next === undefined && steps !== undefined) {
          // `readBySteps` inlined: the reader's promise is the only one a part costs, with no async wrapper around it.
          let read: ReadableStreamReadResult<T> | undefined;
          try {
            read = await steps.reader.read();
          } catch (readError) {
            next = await steps.recover(readError);
          }
          if (read !== undefined) next = read.done ? await steps.end() : steps.accept(read.value);
        }
        next ??= await reader.read();
        if (next.done) break;
        if (admit(next.value)) publish(next.value);
      }
      for (const part of await beforeClose()) publish(part);
      finish({});
    } catch (error) {
      finish({ error });
    }
  };

  const publish = (part: T) => {
    parts.push(part);
    for (const subscriber of subscribers) deliver(subscriber, part);
  };

  const finish = (outcome: { error?: unknown }) => {
    finished = outcome;
    ended.resolve();
    for (const subscriber of subscribers) close(subscriber, outcome);
    subscribers = [];
  };

  return {
    drain() {
      if (!pumping) void pump();
      return ended.promise;
    },
    subscribe<U>({ select }: { select?: (part: T, controller: ReadableStreamDefaultController<U>) => void } = {}) {
      let subscriber: Subscriber<T> | undefined;
      subscriberCount++;
      return new ReadableStream<T | U>({
        start(controller) {
          subscriber = { controller, select: select as Subscriber<T>['select'] };
          for (const part of parts) deliver(subscriber, part);
          if (finished) close(subscriber, finished);
          else subscribers.push(subscriber);
          if (!pumping) void pump();
        },
        async cancel(reason) {
          if (subscriber) subscribers = subscribers.filter((other) => other !== subscriber);
          if (finished) return;
          subscriberCount--;
          if (subscriberCount === 0) {
            cancelled = true;
            await reader?.cancel(reason);
          }
        },
      });
    },
  };
}

interface Subscriber<T> {
  readonly controller: ReadableStreamDefaultController<unknown>;
  /** What the subscriber receives for a part; without it, the part itself. */
  readonly select: ((part: T, controller: ReadableStreamDefaultController<unknown>) => void) | undefined;
}

function deliver<T>(subscriber: Subscriber<T>, part: T): void {
  if (subscriber.select === undefined) subscriber.controller.enqueue(part);
  else subscriber.select(part, subscriber.controller);
}

function close<T>(subscriber: Subscriber<T>, outcome: { error?: unknown }): void {
  if (outcome.error !== undefined) subscriber.controller.error(outcome.error);
  else subscriber.controller.close();
}
