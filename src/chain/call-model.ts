import { generateText } from 'ai';
import type { AdvisedRequest, AdvisedResponse } from './advisor.ts';
import { failedResponse } from './failed-response.ts';
import { modelError } from './model-error.ts';

/** The end of a non-streaming chain: one `generateText` call, tool steps included. */
export async function callModel(request: AdvisedRequest): Promise<AdvisedResponse> {
  try {
    const result = await generateText({
      ...request.settings,
      model: request.model,
      instructions: request.instructions,
      messages: [...request.messages],
      allowSystemInMessages: hasSystemMessage(request),
      tools: request.tools,
      abortSignal: request.abortSignal,
    });
    return {
      text: result.text,
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
    return failedResponse(request, modelError(error, 'generate'), request.abortSignal?.aborted ? 'aborted' : 'error');
  }
}

export function hasSystemMessage(request: AdvisedRequest): boolean {
  return request.messages.some((message) => message.role === 'system');
}
