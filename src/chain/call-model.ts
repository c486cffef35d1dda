import { generateText } from 'ai';
import type { AdvisedRequest, AdvisedResponse } from './advisor.ts';
import { modelCallTelemetry } from '../telemetry/private-telemetry.ts';
import { failedResponse } from './failed-response.ts';
import { modelError } from './model-error.ts';

/** The end of a non-streaming chain: one `generateText` call, tool steps included. */
export async function callModel(request: AdvisedRequest): Promise<AdvisedResponse> {
  try {
    const result = await generateText({ ...modelCallOptions(request), abortSignal: request.abortSignal });
    return {
      text: result.text,
      output: result.output,
      messages: result.responseMessages,
      usage: result.totalUsage,
      finishReason: result.finishReason,
      outcome: 'finished',
      sources: request.sources,
      metadata: request.context.metadata,
      context: request.context,
      request,
    };
  } catch (error) {
    const aborted = request.abortSignal?.aborted === true;
    return failedResponse(request, modelError(error, 'generate', aborted ? undefined : request.settings), aborted ? 'aborted' : 'error');
  }
}

/** What `generateText`/`streamText` receive from an advised request (without the abort signal). */
export function modelCallOptions(request: AdvisedRequest) {
  return {
    ...request.settings,
    model: request.model,
    instructions: request.instructions,
    messages: [...request.messages],
    allowSystemInMessages: request.messages.some((message) => message.role === 'system'),
    tools: request.tools,
    telemetry: modelCallTelemetry(request.settings.telemetry),
  };
}
