import { describe, expect, it } from 'vitest';
import { LazyPartStream, type PartSource, partSourceOf, streamOfParts, withPlainStream, withResponse } from '../../src/util/part-source.ts';

function countingSource(parts: readonly string[]) {
  let reads = 0;
  let cancelled: unknown;
  const source: PartSource<string> = {
    read: async () => (reads < parts.length ? { done: false, value: parts[reads++]! } : { done: true, value: undefined }),
    cancel: async (reason) => {
      cancelled = reason;
    },
  };
  return { source, reads: () => reads, cancelled: () => cancelled };
}

async function readAll<T>(source: PartSource<T>): Promise<T[]> {
  const parts: T[] = [];
  for (let next = await source.read(); !next.done; next = await source.read()) parts.push(next.value);
  return parts;
}

describe('streamOfParts / partSourceOf', () => {
  it('reads nothing from the source until a consumer asks for a part', async () => {
    const counting = countingSource(['a', 'b']);
    const stream = streamOfParts(counting.source);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(counting.reads()).toBe(0);

    const parts: string[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts).toEqual(['a', 'b']);
  });

  it('hands an unread stream of parts its own source, and locks the stream against a second consumer', async () => {
    const counting = countingSource(['a', 'b']);
    const stream = streamOfParts(counting.source);
    const source = partSourceOf({ stream });

    expect(source).toBe(counting.source);
    expect(stream.locked).toBe(true);
    expect(await readAll(source)).toEqual(['a', 'b']);
  });

  it('reads any other stream through a reader, cancellation included', async () => {
    const counting = countingSource(['a', 'b', 'c']);
    const piped = streamOfParts(counting.source).pipeThrough(new TransformStream<string, string>());
    const source = partSourceOf({ stream: piped });

    expect(await source.read()).toEqual({ done: false, value: 'a' });
    await source.cancel('gone');
    await expect.poll(() => counting.cancelled()).toBe('gone');
  });
});

describe('LazyPartStream', () => {
  it('builds its stream once, when first asked for, and the stream reads nothing until a consumer asks', async () => {
    const counting = countingSource(['a', 'b']);
    const holder = new LazyPartStream(counting.source, 'response');
    const stream = holder.stream;
    expect(holder.stream).toBe(stream);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(counting.reads()).toBe(0);

    const parts: string[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts).toEqual(['a', 'b']);
  });

  it('hands its consumer the source itself; a stream asked for afterwards comes locked', async () => {
    const counting = countingSource(['a', 'b']);
    const holder = new LazyPartStream(counting.source, 'response');
    const source = partSourceOf(holder);

    expect(source).toBe(counting.source);
    expect(holder.stream.locked).toBe(true);
    expect(await readAll(source)).toEqual(['a', 'b']);
  });

  it('keeps its parts, built or not, when given another response', () => {
    const unbuilt = countingSource(['a']);
    const holder = new LazyPartStream(unbuilt.source, 'first');
    const rewrapped = withResponse(holder, 'second');
    expect(rewrapped.response).toBe('second');
    expect(partSourceOf(rewrapped)).toBe(unbuilt.source);
    expect(holder.stream.locked).toBe(true);

    const built = new LazyPartStream(countingSource(['b']).source, 'first');
    expect(withResponse(built, 'second').stream).toBe(built.stream);
  });

  it('becomes a plain object that survives a spread before code outside the library sees it', () => {
    const counting = countingSource(['a']);
    const plain = withPlainStream(new LazyPartStream(counting.source, 'response'));
    const copy = { ...plain, response: 'other' };

    expect(copy.stream).toBeInstanceOf(ReadableStream);
    expect(partSourceOf(copy)).toBe(counting.source);
    expect(copy.stream.locked).toBe(true);
  });
});
