import { createNullLanguageModelUsage } from 'ai/internal';
import type { AdvisedRequest, AdvisedResponse, TurnOutcome } from './advisor.ts';

/** A response for a turn that ended before the model produced anything. */
export function failedResponse(
  request: AdvisedRequest,
  error: unknown,
  outcome: Exclude<TurnOutcome, 'finished'> = 'error',
): AdvisedResponse {
  return {
    text: '',
    messages: [],
    usage: createNullLanguageModelUsage(),
    finishReason: outcome === 'aborted' ? 'other' : 'error',
    outcome,
    error,
    sources: request.sources,
    metadata: request.context.metadata,
    context: request.context,
    request,
  };
}
