import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { forwardAbort } from '../../src/extension/index.ts';

describe('forwardAbort', () => {
  it("aborts the controller with the signal's reason when the signal fires", () => {
    const caller = new AbortController();
    const call = new AbortController();
    forwardAbort(caller.signal, call);
    expect(call.signal.aborted).toBe(false);
    const reason = new Error('the page was closed');
    caller.abort(reason);
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBe(reason);
  });

  it('aborts the controller at once when the signal already has fired, and adds no listener', () => {
    const reason = new Error('gone before it started');
    const signal = AbortSignal.abort(reason);
    const call = new AbortController();
    forwardAbort(signal, call);
    expect(call.signal.reason).toBe(reason);
    expect(getEventListeners(signal, 'abort')).toEqual([]);
  });

  it('stops forwarding, and leaves no listener, once stopped', () => {
    const caller = new AbortController();
    const calls = Array.from({ length: 3 }, () => new AbortController());
    for (const call of calls) forwardAbort(caller.signal, call)();
    expect(getEventListeners(caller.signal, 'abort')).toEqual([]);
    caller.abort();
    expect(calls.every((call) => !call.signal.aborted)).toBe(true);
  });

  it('does nothing without a signal', () => {
    const call = new AbortController();
    forwardAbort(undefined, call)();
    expect(call.signal.aborted).toBe(false);
  });
});
