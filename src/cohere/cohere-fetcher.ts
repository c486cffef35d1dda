import type { CohereClientV2 } from 'cohere-ai';
import { setTimeout as sleep } from 'node:timers/promises';

/** The transport a cohere-ai client calls for every endpoint (its `fetcher` option). */
export type CohereFetchFunction = NonNullable<ConstructorParameters<typeof CohereClientV2>[0]['fetcher']>;
type FetcherArgs = Parameters<CohereFetchFunction>[0];
type FetcherResult = Awaited<ReturnType<CohereFetchFunction>>;
type RawResponse = FetcherResult['rawResponse'];

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;
const INITIAL_RETRY_DELAY_MS = 1_000;
const MAX_RETRY_DELAY_MS = 60_000;

/**
 * The transport of the clients the Cohere reranker creates, in place of
 * cohere-ai's own fetcher, which (as of 8.1.0) keeps a process alive after a
 * failed or aborted call: it clears its request timer only when a response
 * arrives, so an aborted request leaves it running for the whole timeout, and
 * it sleeps between retries without watching the abort signal.
 *
 * Here the timeout is an `AbortSignal.timeout` (which never holds the
 * process), and retries (408, 429, 5xx; `Retry-After` seconds or 1 s, 2 s, ...)
 * sleep under the call's signal, so an abort ends everything at once.
 * JSON requests and responses only, as the rerank endpoint uses; failures are
 * reported in cohere-ai's shapes, so the client raises its usual errors.
 */
export const cohereFetcher = fetchJson as CohereFetchFunction; // the body is JSON; the client parses it into its response type

async function fetchJson(args: FetcherArgs): Promise<FetcherResult> {
  const timeout = args.timeoutMs === undefined ? undefined : AbortSignal.timeout(args.timeoutMs);
  const signal = AbortSignal.any([args.abortSignal, timeout].filter((candidate) => candidate !== undefined));
  try {
    const request = {
      method: args.method,
      headers: await requestHeaders(args),
      body: args.body === undefined ? undefined : JSON.stringify(args.body),
      signal,
    };
    const url = requestUrl(args);
    let response = await fetch(url, request);
    for (let retry = 0; retry < (args.maxRetries ?? 0) && RETRYABLE_STATUS(response.status); retry++) {
      await response.body?.cancel();
      await sleep(retryDelayMs(response, retry), undefined, { signal });
      response = await fetch(url, request);
    }
    return await readResponse(response);
  } catch (error) {
    if (args.abortSignal?.aborted)
      return failure({ reason: 'unknown', errorMessage: 'The user aborted a request', cause: error }, 499, 'Client Closed Request');
    if (timeout?.aborted) return failure({ reason: 'timeout', cause: error }, 0, 'Timeout');
    return failure(
      { reason: 'unknown', errorMessage: error instanceof Error ? error.message : String(error), cause: error },
      0,
      'Unknown Error',
    );
  }
}

async function requestHeaders(args: FetcherArgs): Promise<Headers> {
  const headers = new Headers({ Accept: 'application/json' });
  if (args.body !== undefined && args.contentType !== undefined) headers.set('Content-Type', args.contentType);
  for (const [name, supplier] of Object.entries(args.headers ?? {})) {
    // Header values may be suppliers (functions of the endpoint), as cohere-ai's own fetcher allows.
    const value: unknown = await (typeof supplier === 'function' ? supplier({ endpointMetadata: args.endpointMetadata ?? {} }) : supplier);
    if (value !== undefined && value !== null) headers.set(name, String(value));
  }
  return headers;
}

function requestUrl(args: FetcherArgs): string {
  const url = new URL(args.url);
  for (const [name, value] of Object.entries(args.queryParameters ?? {})) {
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== undefined && item !== null) url.searchParams.append(name, String(item));
  }
  return url.href;
}

function retryDelayMs(response: Response, retry: number): number {
  const retryAfterSeconds = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  const delay = retryAfterSeconds > 0 ? retryAfterSeconds * 1_000 : INITIAL_RETRY_DELAY_MS * 2 ** retry;
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

async function readResponse(response: Response): Promise<FetcherResult> {
  const rawResponse = toRawResponse(response);
  const succeeded = response.status >= 200 && response.status < 400;
  const text = await response.text();
  let body: unknown;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      if (succeeded) return { ok: false, error: { reason: 'non-json', statusCode: response.status, rawBody: text }, rawResponse };
      body = text;
    }
  }
  return succeeded
    ? { ok: true, body, rawResponse }
    : { ok: false, error: { reason: 'status-code', statusCode: response.status, body }, rawResponse };
}

function toRawResponse(response: Response): RawResponse {
  const { headers, redirected, status, statusText, type, url } = response;
  return { headers, redirected, status, statusText, type, url };
}

function failure(error: Extract<FetcherResult, { ok: false }>['error'], status: number, statusText: string): FetcherResult {
  return { ok: false, error, rawResponse: { headers: new Headers(), redirected: false, status, statusText, type: 'error', url: '' } };
}
