import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { AdvisedRequest, AdvisedResponse, AdvisedStream, Advisor, CallNext, StreamNext } from './advisor.ts';
import { failedResponse } from './failed-response.ts';
import { failedStream } from './failed-stream.ts';
import { sortAdvisors } from './sort-advisors.ts';
import { validateAdvisors } from './validate-advisors.ts';
import { traceAdvisorHook } from '../telemetry/trace-advisor-hook.ts';
import { isAbortError, wrapAdvisorError } from './wrap-advisor-error.ts';

/**
 * An immutable, ordered list of advisors. The same chain serves any number of
 * concurrent requests: all per-request state lives in the request's context.
 */
export interface AdvisorChain {
  /** Advisors in execution order (ascending `order`, ties in registration order). */
  readonly advisors: readonly Advisor[];
  /** A new chain with `additional` registered after this chain's advisors. */
  with(additional: readonly Advisor[] | undefined): AdvisorChain;
  /** Runs the chain around `terminal` (the model call) for a non-streaming turn. */
  call(request: AdvisedRequest, terminal: CallNext): Promise<AdvisedResponse>;
  /** Runs the chain around `terminal` for a streaming turn. */
  stream(request: AdvisedRequest, terminal: StreamNext): Promise<AdvisedStream>;
  /**
   * Runs only the `after` hooks, innermost first, on a response produced
   * outside the chain: the later steps of a turn the middleware continues.
   */
  complete(response: AdvisedResponse): Promise<AdvisedResponse>;
}

/**
 * Validates and orders advisors once, up front.
 *
 * @example
 * const chain = createAdvisorChain([memory, rag, logging]);
 */
export function createAdvisorChain(advisors: readonly Advisor[] = []): AdvisorChain {
  validateAdvisors(advisors);
  const registered = Object.freeze([...advisors]);
  const ordered = sortAdvisors(registered);
  return Object.freeze({
    advisors: ordered,
    with(additional: readonly Advisor[] | undefined): AdvisorChain {
      if (additional === undefined || additional.length === 0) return this;
      return createAdvisorChain([...registered, ...additional]);
    },
    call(request: AdvisedRequest, terminal: CallNext) {
      return invokeCall(ordered, 0, request, terminal);
    },
    stream(request: AdvisedRequest, terminal: StreamNext) {
      return invokeStream(ordered, 0, request, terminal);
    },
    async complete(response: AdvisedResponse) {
      let completed = response;
      for (let index = ordered.length - 1; index >= 0; index--) completed = await runAfter(ordered[index], completed);
      return completed;
    },
  });
}

async function invokeCall(
  advisors: readonly Advisor[],
  index: number,
  request: AdvisedRequest,
  terminal: CallNext,
): Promise<AdvisedResponse> {
  const advisor = advisors[index];
  if (advisor === undefined) return terminal(request);

  const before = await runBefore(advisor, request);
  if ('failed' in before) return before.failed;
  const advised = before.request;

  const next: CallNext = (nextRequest) => invokeCall(advisors, index + 1, checkRequest(nextRequest, advisor), terminal);
  let response: AdvisedResponse;
  try {
    response = advisor.aroundCall
      ? await traceAdvisorHook(advised.context, advisor, 'around', () => advisor.aroundCall!(advised, next))
      : await next(advised);
  } catch (error) {
    response = failedResponse(advised, wrapAdvisorError(error, advisor.name, 'aroundCall'), outcomeOf(advised, error));
  }
  return runAfter(advisor, response);
}

async function invokeStream(
  advisors: readonly Advisor[],
  index: number,
  request: AdvisedRequest,
  terminal: StreamNext,
): Promise<AdvisedStream> {
  const advisor = advisors[index];
  if (advisor === undefined) return terminal(request);

  const before = await runBefore(advisor, request);
  if ('failed' in before) return failedStream(before.failed);
  const advised = before.request;

  const next: StreamNext = (nextRequest) => invokeStream(advisors, index + 1, checkRequest(nextRequest, advisor), terminal);
  let advisedStream: AdvisedStream;
  try {
    advisedStream = advisor.aroundStream
      ? await traceAdvisorHook(advised.context, advisor, 'around', () => advisor.aroundStream!(advised, next))
      : await next(advised);
  } catch (error) {
    return failedStream(failedResponse(advised, wrapAdvisorError(error, advisor.name, 'aroundStream'), outcomeOf(advised, error)));
  }
  if (!advisor.after) return advisedStream;
  // `after` hangs off the response promise: parts keep flowing unbuffered.
  return { stream: advisedStream.stream, response: advisedStream.response.then((response) => runAfter(advisor, response)) };
}

/** An advisor's `before` hook; a failure becomes a failed response naming the advisor. */
async function runBefore(advisor: Advisor, request: AdvisedRequest): Promise<{ request: AdvisedRequest } | { failed: AdvisedResponse }> {
  if (!advisor.before) return { request };
  try {
    const before = () => advisor.before!(request);
    return { request: checkRequest(await traceAdvisorHook(request.context, advisor, 'before', before), advisor) };
  } catch (error) {
    return { failed: failedResponse(request, wrapAdvisorError(error, advisor.name, 'before'), outcomeOf(request, error)) };
  }
}

async function runAfter(advisor: Advisor, response: AdvisedResponse): Promise<AdvisedResponse> {
  if (!advisor.after) return response;
  try {
    const after = () => advisor.after!(response);
    return checkResponse(await traceAdvisorHook(response.context, advisor, 'after', after), advisor);
  } catch (error) {
    return { ...response, outcome: 'error', error: wrapAdvisorError(error, advisor.name, 'after') };
  }
}

function outcomeOf(request: AdvisedRequest, error: unknown): 'error' | 'aborted' {
  return request.abortSignal?.aborted || isAbortError(error) ? 'aborted' : 'error';
}

function checkRequest(request: AdvisedRequest, advisor: Advisor): AdvisedRequest {
  if (request === null || typeof request !== 'object' || !Array.isArray(request.messages) || !request.context) {
    throw new AdvisorArgumentError({
      component: advisor.name,
      argument: 'request',
      message: 'an advisor must pass on a complete AdvisedRequest (spread the one it received: `{ ...request, ... }`)',
    });
  }
  return request;
}

function checkResponse(response: AdvisedResponse, advisor: Advisor): AdvisedResponse {
  if (response === null || typeof response !== 'object' || typeof response.outcome !== 'string') {
    throw new AdvisorArgumentError({
      component: advisor.name,
      argument: 'response',
      message: '`after` must return a complete AdvisedResponse (spread the one it received: `{ ...response, ... }`)',
    });
  }
  return response;
}
