import { describe, expect, it, vi } from 'vitest';
import { AdvisorTimeoutError } from '../../src/index.ts';
import { callWithTimeout } from '../../src/util/call-with-timeout.ts';

const never = () => new Promise<never>(() => {});

describe('callWithTimeout', () => {
  it('returns the result of a call that finishes in time', async () => {
    await expect(callWithTimeout({ component: 'reranker', operation: 'rerank', timeoutMs: 100, run: async () => 42 })).resolves.toBe(42);
  });

  it('sets no timer for a call that is done at once (an in-memory index), and one for a call still running', async () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    try {
      await callWithTimeout({ component: 'retriever', operation: 'retrieve', timeoutMs: 10_000, run: async () => ['hit'] });
      expect(setTimer).not.toHaveBeenCalled();
      const later = callWithTimeout({
        component: 'retriever',
        operation: 'retrieve',
        timeoutMs: 10_000,
        run: () => new Promise((resolve) => setImmediate(() => resolve(['hit']))),
      });
      await Promise.resolve();
      expect(setTimer).toHaveBeenCalledWith(expect.any(Function), 10_000);
      await expect(later).resolves.toEqual(['hit']);
    } finally {
      setTimer.mockRestore();
    }
  });

  it('rejects with a AdvisorTimeoutError naming the component, even when the call ignores its signal', async () => {
    const error = await callWithTimeout({ component: 'reranker', operation: 'rerank', timeoutMs: 20, run: never }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(AdvisorTimeoutError);
    expect(error.message).toBe('reranker: rerank timed out after 20 ms');
  });

  it('aborts the signal it gave the call when the deadline passes', async () => {
    let seen: AbortSignal | undefined;
    await callWithTimeout({
      component: 'vector-store',
      operation: 'search',
      timeoutMs: 10,
      run: (signal) => ((seen = signal), never()),
    }).catch(() => {});
    expect(seen?.aborted).toBe(true);
  });

  it("rejects with the caller's abort reason as soon as the caller aborts", async () => {
    const controller = new AbortController();
    const pending = callWithTimeout({
      component: 'model',
      operation: 'generate',
      timeoutMs: 10_000,
      abortSignal: controller.signal,
      run: never,
    });
    controller.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow('client went away');
  });

  it('does not start a call whose signal is already aborted', async () => {
    let started = false;
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const run = async () => {
      started = true;
    };
    await expect(callWithTimeout({ component: 'x', operation: 'y', timeoutMs: 10, abortSignal: controller.signal, run })).rejects.toThrow(
      'too late',
    );
    expect(started).toBe(false);
  });
});
