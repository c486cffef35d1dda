export interface RetryOptions {
  /** Attempts after the first. */
  maxRetries: number;
  /** Wait before the first retry; doubles before each next one. */
  initialDelayMs: number;
  abortSignal: AbortSignal;
  isRetryable: (error: unknown) => boolean;
}

/** Runs `attempt` until it succeeds, fails with an error that is not retryable, or runs out of retries. */
export async function retryWithBackoff<T>(
  attempt: () => Promise<T>,
  { maxRetries, initialDelayMs, abortSignal, isRetryable }: RetryOptions,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= maxRetries || abortSignal.aborted || !isRetryable(error)) throw error;
      await sleep(initialDelayMs * 2 ** retry, abortSignal);
    }
  }
}

function sleep(ms: number, abortSignal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortSignal.reason);
    };
    const timer = setTimeout(() => {
      abortSignal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    abortSignal.addEventListener('abort', onAbort, { once: true });
  });
}
