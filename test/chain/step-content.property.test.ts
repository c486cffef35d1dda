import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../src/index.ts';
import { usage } from '../helpers/mock-models.ts';

type Metadata = Record<string, Record<string, string>>;

const metadata: fc.Arbitrary<Metadata | undefined> = fc.option(
  fc.string({ minLength: 1, maxLength: 8 }).map((itemId) => ({ openai: { itemId } })),
  { nil: undefined },
);
const withMetadata = (providerMetadata: Metadata | undefined) => (providerMetadata === undefined ? {} : { providerMetadata });

/** A text or reasoning block: its start, deltas and end, each with or without provider metadata. */
const textBlock = fc
  .record({
    kind: fc.constantFrom('text' as const, 'reasoning' as const),
    deltas: fc.array(fc.tuple(fc.string({ maxLength: 6 }), metadata), { maxLength: 4 }),
    start: metadata,
    end: metadata,
  })
  .map(({ kind, deltas, start, end }) => (id: string): LanguageModelV4StreamPart[] => [
    { type: `${kind}-start`, id, ...withMetadata(start) },
    ...deltas.map(([delta, deltaMetadata]): LanguageModelV4StreamPart => ({
      type: `${kind}-delta`,
      id,
      delta,
      ...withMetadata(deltaMetadata),
    })),
    { type: `${kind}-end`, id, ...withMetadata(end) },
  ]);

const otherBlock: fc.Arbitrary<(id: string) => LanguageModelV4StreamPart[]> = fc.oneof(
  fc
    .tuple(fc.constantFrom('file' as const, 'reasoning-file' as const), fc.base64String({ minLength: 4, maxLength: 12 }), metadata)
    .map(([type, data, fileMetadata]) => (): LanguageModelV4StreamPart[] => [
      { type, mediaType: 'image/png', data: { type: 'data', data }, ...withMetadata(fileMetadata) } as LanguageModelV4StreamPart,
    ]),
  metadata.map((customMetadata) => (): LanguageModelV4StreamPart[] => [
    { type: 'custom', kind: 'openai.compaction', ...withMetadata(customMetadata) },
  ]),
  fc.constant((id: string): LanguageModelV4StreamPart[] => [{ type: 'source', sourceType: 'url', id, url: `https://example.com/${id}` }]),
  // A call of a tool the request did not give: the SDK answers it with an error in the same step.
  fc.constant((id: string): LanguageModelV4StreamPart[] => [{ type: 'tool-call', toolCallId: id, toolName: 'unknown_tool', input: '{}' }]),
);

/** One model step: blocks in sequence, two of them sometimes interleaved part by part. */
const step = fc.tuple(fc.array(fc.oneof(textBlock, otherBlock), { maxLength: 5 }), fc.boolean()).map(([blocks, interleave]) => {
  const parts = blocks.map((block, index) => block(`p${index}`));
  if (interleave && parts.length >= 2) {
    const [first, second] = parts.splice(0, 2);
    const merged = Array.from({ length: Math.max(first.length, second.length) }, (_, index) => [first[index], second[index]]).flat();
    parts.unshift(merged.filter((part) => part !== undefined));
  }
  return [
    { type: 'stream-start', warnings: [] },
    ...parts.flat(),
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ] satisfies LanguageModelV4StreamPart[];
});

const modelStreaming = (parts: readonly LanguageModelV4StreamPart[]) =>
  new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks: [...parts] }) }) });

describe('the response of a turn without tools', () => {
  it('holds the messages and text the AI SDK gives for the same step, also when the step reports an error', async () => {
    await fc.assert(
      fc.asyncProperty(step, fc.option(fc.nat(), { nil: undefined }), async (clean, errorAt) => {
        // A provider error part somewhere in the step: the step still ends, and the turn fails with what it holds.
        const parts = [...clean];
        if (errorAt !== undefined) parts.splice(1 + (errorAt % (parts.length - 1)), 0, { type: 'error', error: new Error('overloaded') });
        const sdk = streamText({ model: modelStreaming(parts), prompt: 'q', onError: () => {} });
        const [expectedMessages, expectedText] = await Promise.all([sdk.responseMessages, sdk.text]);

        const result = createChatClient({ model: modelStreaming(parts) }).stream({ prompt: 'q' });
        await result.consumeStream();
        const response = await result.response;

        expect(response.outcome).toBe(errorAt === undefined ? 'finished' : 'error');
        expect(response.messages).toStrictEqual(expectedMessages);
        if (errorAt === undefined) expect(response.text).toBe(expectedText);
      }),
      { numRuns: 200 },
    );
  });
});
