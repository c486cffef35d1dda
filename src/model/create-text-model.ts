import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';

/** Options of `createTextModel`. */
export interface CreateTextModelOptions {
  readonly provider: string;
  readonly modelId: string;
  /** Produces the whole answer for a call; it is streamed word by word. */
  readonly answer: (options: LanguageModelV4CallOptions) => string | Promise<string>;
}

/**
 * A language model that answers with text computed locally, without a
 * network: used for advisors that answer directly and for the offline model.
 */
export function createTextModel({ provider, modelId, answer }: CreateTextModelOptions): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider,
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const text = await answer(options);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: estimateUsage(options, text),
        warnings: [],
      };
    },
    async doStream(options) {
      const text = await answer(options);
      return { stream: textModelStream(text, estimateUsage(options, text), options.abortSignal) };
    },
  };
}

function textModelStream(
  text: string,
  usage: LanguageModelV4Usage,
  abortSignal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  const chunks = text.match(/\S+\s*|\s+/g) ?? [];
  let index = 0;
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 'text-0' });
    },
    pull(controller) {
      if (abortSignal?.aborted) {
        controller.error(abortSignal.reason);
        return;
      }
      const chunk = chunks[index++];
      if (chunk !== undefined) {
        controller.enqueue({ type: 'text-delta', id: 'text-0', delta: chunk });
        return;
      }
      controller.enqueue({ type: 'text-end', id: 'text-0' });
      controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
      controller.close();
    },
  });
}

/** A rough count (about four characters a token) so that usage is never blank. */
function estimateUsage(options: LanguageModelV4CallOptions, text: string): LanguageModelV4Usage {
  const promptChars = JSON.stringify(options.prompt).length;
  const input = Math.ceil(promptChars / 4);
  const output = Math.ceil(text.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
