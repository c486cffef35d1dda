import type { TextStreamPart, ToolSet } from 'ai';
import type { AdvisedResponse, AdvisedStream } from './advisor.ts';

/** A stream that reports why a turn ended before the model streamed anything. */
export function failedStream(response: AdvisedResponse): AdvisedStream {
  const part: TextStreamPart<ToolSet> =
    response.outcome === 'aborted' ? { type: 'abort', reason: describe(response.error) } : { type: 'error', error: response.error };
  return {
    stream: new ReadableStream({
      start(controller) {
        controller.enqueue(part);
        controller.close();
      },
    }),
    response: Promise.resolve(response),
  };
}

function describe(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  return error instanceof Error ? error.message : String(error);
}
