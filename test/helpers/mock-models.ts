import type { LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

export const usage: LanguageModelV4Usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The parts of one streamed text answer, split into the given chunks. */
export function textParts(chunks: readonly string[]): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...chunks.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
}

/** The parts of a step that calls one tool. */
export function toolCallParts(toolName: string, input: unknown, toolCallId = 'call-1'): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ];
}

/** A mock model that streams the given steps in order (one per call) and answers generate calls likewise. */
export function mockModel(steps: readonly (readonly LanguageModelV4StreamPart[])[]): MockLanguageModelV4 {
  let streamCall = 0;
  let generateCall = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: simulateReadableStream({ chunks: [...(steps[streamCall++] ?? steps.at(-1)!)] }) }),
    doGenerate: async () => {
      const parts = steps[generateCall++] ?? steps.at(-1)!;
      const text = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');
      const toolCalls = parts.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
      const finish = parts.find((part) => part.type === 'finish');
      return {
        content: [...(text ? [{ type: 'text' as const, text }] : []), ...toolCalls],
        finishReason: finish?.type === 'finish' ? finish.finishReason : { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

/** The text of the user messages a model call received. */
export function promptText(call: { prompt: readonly { role: string; content: unknown }[] }): string {
  return call.prompt
    .map((message) =>
      typeof message.content === 'string'
        ? `${message.role}: ${message.content}`
        : `${message.role}: ${(message.content as { type: string; text?: string }[])
            .map((part) => part.text ?? `[${part.type}]`)
            .join('')}`,
    )
    .join('\n');
}

/** A model that streams `text` and then hangs until the call is aborted (for abort and disconnect tests). */
export function hangingModel(text: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: text });
          abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
        },
      }),
    }),
  });
}
