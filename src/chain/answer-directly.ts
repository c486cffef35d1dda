import { createTextModel } from '../model/create-text-model.ts';
import type { AdvisedRequest, AdvisedResponse, AdvisedStream } from './advisor.ts';
import { callModel } from './call-model.ts';
import { streamModel } from './stream-model.ts';

/** Options of `answerDirectly` and `streamDirectAnswer`: who answers, and with what text. */
export interface AnswerDirectlyOptions {
  /** The name of the advisor that answers; recorded as `answeredBy`. */
  readonly advisor: string;
  readonly text: string;
}

/**
 * Ends a non-streaming turn with a fixed answer, without calling the model or
 * the advisors after this one (a short-circuit, e.g. a safeguard's refusal).
 * The answer is plain text: a structured `output` the call asked for is `undefined`.
 */
export async function answerDirectly(request: AdvisedRequest, options: AnswerDirectlyOptions): Promise<AdvisedResponse> {
  const response = await callModel(directRequest(request, options));
  return { ...response, output: undefined, answeredBy: options.advisor };
}

/** The streaming counterpart of {@link answerDirectly}: the answer streams as ordinary text parts. */
export async function streamDirectAnswer(request: AdvisedRequest, options: AnswerDirectlyOptions): Promise<AdvisedStream> {
  const { stream, response } = await streamModel(directRequest(request, options));
  return { stream, response: response.then((advised) => ({ ...advised, output: undefined, answeredBy: options.advisor })) };
}

function directRequest(request: AdvisedRequest, { advisor, text }: AnswerDirectlyOptions): AdvisedRequest {
  return {
    ...request,
    model: createTextModel({ provider: 'ai-advisors', modelId: `answer:${advisor}`, answer: () => text }),
    tools: undefined,
    settings: {},
  };
}
