import { describe, expect, it } from 'vitest';
import { createReplayBroadcast } from '../../src/client/replay-broadcast.ts';
import { LazyPartStream, type PartSource, readBySteps, type ReadSteps } from '../../src/util/part-source.ts';

/**
 * A source over `parts` (an `Error` among them makes the reader fail there) that upper-cases each part it accepts,
 * puts `queued` right after the first part, and ends with `end`, as the stream model's does: `read` is `readBySteps`.
 */
function stepSource(parts: readonly (string | Error)[], queued: string[]) {
  const log: string[] = [];
  let closed = false;
  let index = 0;
  const reader = new ReadableStream<string>({
    pull(controller) {
      const part = parts[index++];
      if (part === undefined) controller.close();
      else if (part instanceof Error) controller.error(part);
      else controller.enqueue(part);
    },
  }).getReader();
  let accepted = 0;
  const steps: ReadSteps<string> = {
    ready: () =>
      accepted > 0 && queued.length > 0 ? { done: false, value: queued.shift()! } : closed ? { done: true, value: undefined } : undefined,
    reader,
    accept(part) {
      accepted++;
      return { done: false, value: part.toUpperCase() };
    },
    async end() {
      closed = true;
      log.push('end');
      return { done: true, value: undefined };
    },
    async recover(error) {
      closed = true;
      log.push('recover');
      return { done: false, value: `failed: ${(error as Error).message}` };
    },
  };
  const read = () => {
    log.push('read');
    return readBySteps(steps);
  };
  const source: PartSource<string> = { read, cancel: (reason) => reader.cancel(reason), steps };
  return { source, log };
}

async function published(source: PartSource<string>): Promise<string[]> {
  const broadcast = createReplayBroadcast<string>(async () => new LazyPartStream(source, undefined));
  const parts: string[] = [];
  for await (const part of broadcast.subscribe()) parts.push(part);
  return parts;
}

describe('createReplayBroadcast over a source with read steps', () => {
  it('reads the source’s reader itself and publishes what `read` would: accepted parts, queued ones in place, the end', async () => {
    const stepped = stepSource(['a', 'b', 'c'], ['q1', 'q2']);
    const { read, cancel } = stepSource(['a', 'b', 'c'], ['q1', 'q2']).source;

    expect(await published(stepped.source)).toEqual(['A', 'q1', 'q2', 'B', 'C']);
    expect(await published({ read, cancel })).toEqual(['A', 'q1', 'q2', 'B', 'C']);
    expect(stepped.log).toEqual(['end']);
  });

  it('publishes the recovered part when the reader fails, then ends, as `read` does', async () => {
    const stepped = stepSource(['a', new Error('dropped'), 'never'], []);
    const { read, cancel } = stepSource(['a', new Error('dropped'), 'never'], []).source;

    expect(await published(stepped.source)).toEqual(['A', 'failed: dropped']);
    expect(await published({ read, cancel })).toEqual(['A', 'failed: dropped']);
    expect(stepped.log).toEqual(['recover']);
  });
});
