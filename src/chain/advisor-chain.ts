import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { AdvisedRequest, AdvisedResponse, AdvisedStream, Advisor, CallNext, StreamNext } from './advisor.ts';
import { failedResponse } from './failed-response.ts';
import { failedStream } from './failed-stream.ts';
import { sortAdvisors } from './sort-advisors.ts';
import { validateAdvisors } from './validate-advisors.ts';
import { isTraced } from '../telemetry/record-span.ts';
import { traceAdvisorHook } from '../telemetry/trace-advisor-hook.ts';
import { withPlainStream, withResponse } from '../util/part-source.ts';
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
 * const chain = createAdvisorChain([messageMemoryAdvisor({ memory }), rag, logging]);
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
    complete(response: AdvisedResponse) {
      return runAfters(ordered, 0, ordered.length, response);
    },
  });
}

/**
 * Advisors without an around hook only rewrite the request and the response,
 * so they run in one loop (no stack frame, closure or promise per advisor);
 * the first advisor with an around hook gets the rest of the chain as `next`.
 * An advisor whose `before` completed gets its `after` for every outcome.
 */
async function invokeCall(
  advisors: readonly Advisor[],
  index: number,
  request: AdvisedRequest,
  terminal: CallNext,
): Promise<AdvisedResponse> {
  let advised = request;
  for (let position = index; position < advisors.length; position++) {
    const advisor = advisors[position];
    if (advisor.before !== undefined) {
      try {
        advised = checkRequest(await callBefore(advisor, advised), advisor);
      } catch (error) {
        return await runAfters(advisors, index, position, failedBefore(advisor, advised, error));
      }
    }
    if (advisor.aroundCall === undefined) continue;
    const next: CallNext = (nextRequest) => invokeCall(advisors, position + 1, checkRequest(nextRequest, advisor), terminal);
    let response: AdvisedResponse;
    try {
      response = await traceAdvisorHook(advised.context, advisor, 'around', () => advisor.aroundCall!(advised, next));
    } catch (error) {
      response = failedResponse(advised, wrapAdvisorError(error, advisor.name, 'aroundCall'), outcomeOf(advised, error));
    }
    return await runAfters(advisors, index, position + 1, response);
  }
  if (index === advisors.length) return await terminal(advised);
  let response: AdvisedResponse;
  try {
    response = await terminal(advised);
  } catch (error) {
    // As if the innermost advisor had called `next` from its own around hook.
    response = failedResponse(advised, wrapAdvisorError(error, advisors.at(-1)!.name, 'aroundCall'), outcomeOf(advised, error));
  }
  return await runAfters(advisors, index, advisors.length, response);
}

async function invokeStream(
  advisors: readonly Advisor[],
  index: number,
  request: AdvisedRequest,
  terminal: StreamNext,
): Promise<AdvisedStream> {
  let advised = request;
  for (let position = index; position < advisors.length; position++) {
    const advisor = advisors[position];
    if (advisor.before !== undefined) {
      try {
        advised = checkRequest(await callBefore(advisor, advised), advisor);
      } catch (error) {
        return afterStream(advisors, index, position, failedStream(failedBefore(advisor, advised, error)));
      }
    }
    if (advisor.aroundStream === undefined) continue;
    // Advisors may spread what `next` gives them: a stream built lazily becomes a plain property first.
    const next: StreamNext = (nextRequest) =>
      invokeStream(advisors, position + 1, checkRequest(nextRequest, advisor), terminal).then(withPlainStream);
    let advisedStream: AdvisedStream;
    try {
      advisedStream = await traceAdvisorHook(advised.context, advisor, 'around', () => advisor.aroundStream!(advised, next));
    } catch (error) {
      advisedStream = failedStream(
        failedResponse(advised, wrapAdvisorError(error, advisor.name, 'aroundStream'), outcomeOf(advised, error)),
      );
    }
    return afterStream(advisors, index, position + 1, advisedStream);
  }
  if (index === advisors.length) return await terminal(advised);
  let advisedStream: AdvisedStream;
  try {
    advisedStream = await terminal(advised);
  } catch (error) {
    const failure = wrapAdvisorError(error, advisors.at(-1)!.name, 'aroundStream');
    advisedStream = failedStream(failedResponse(advised, failure, outcomeOf(advised, error)));
  }
  return afterStream(advisors, index, advisors.length, advisedStream);
}

/** The `after` hooks of `advisors[from..to)`, innermost first; a failing hook makes the response an error naming it. */
async function runAfters(advisors: readonly Advisor[], from: number, to: number, response: AdvisedResponse): Promise<AdvisedResponse> {
  let completed = response;
  for (let position = to - 1; position >= from; position--) {
    const advisor = advisors[position];
    if (advisor.after === undefined) continue;
    try {
      completed = checkResponse(await callAfter(advisor, completed), advisor);
    } catch (error) {
      completed = { ...completed, outcome: 'error', error: wrapAdvisorError(error, advisor.name, 'after') };
    }
  }
  return completed;
}

/** The stream with the `after` hooks of `advisors[from..to)` hung off its response: parts keep flowing unbuffered. */
function afterStream(advisors: readonly Advisor[], from: number, to: number, advisedStream: AdvisedStream): AdvisedStream {
  let withAfter = false;
  for (let position = from; position < to && !withAfter; position++) withAfter = advisors[position].after !== undefined;
  if (!withAfter) return advisedStream;
  return withResponse(advisedStream, afterResponse(advisors, from, to, advisedStream.response));
}

/** `runAfters` once `response` settles; awaited rather than returned from a `then`, which adopts it in two more microtasks. */
async function afterResponse(advisors: readonly Advisor[], from: number, to: number, response: Promise<AdvisedResponse>) {
  return await runAfters(advisors, from, to, await response);
}

/**
 * An advisor's `before` hook, traced when the turn is. Untraced, the hook is called directly, and the chain's loop
 * awaits it without an async wrapper: the code a turn runs once is cold in a busy process, and every frame, promise
 * and microtask less on its path is time saved.
 */
function callBefore(advisor: Advisor, request: AdvisedRequest): AdvisedRequest | Promise<AdvisedRequest> {
  return isTraced(request.context)
    ? traceAdvisorHook(request.context, advisor, 'before', () => advisor.before!(request))
    : advisor.before!(request);
}

function callAfter(advisor: Advisor, response: AdvisedResponse): AdvisedResponse | Promise<AdvisedResponse> {
  return isTraced(response.context)
    ? traceAdvisorHook(response.context, advisor, 'after', () => advisor.after!(response))
    : advisor.after!(response);
}

/** The failed response of a `before` hook that threw (or passed on no complete request), naming the advisor. */
function failedBefore(advisor: Advisor, request: AdvisedRequest, error: unknown): AdvisedResponse {
  return failedResponse(request, wrapAdvisorError(error, advisor.name, 'before'), outcomeOf(request, error));
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
