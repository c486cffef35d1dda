import { describe, expect, it } from 'vitest';
import {
  AdvisorArgumentError,
  AdvisorError,
  AdvisorTimeoutError,
  ComponentError,
  MemoryAppendUnknownError,
} from '../../src/errors/index.ts';

describe('error classes', () => {
  const argument = new AdvisorArgumentError({ component: 'chat-client', argument: 'messages', message: 'expected an array' });
  const timeout = new AdvisorTimeoutError({ component: 'model', operation: 'stream', timeoutMs: 10 });
  const unknown = new MemoryAppendUnknownError({ timeoutMs: 10, key: 'k', settledByNextRead: true });
  const component = new ComponentError({ component: 'reranker', operation: 'rerank', cause: new Error('boom') });

  it('are recognised by isInstance along their class chain, and only there', () => {
    expect([argument, timeout, unknown, component].every((error) => AdvisorError.isInstance(error))).toBe(true);
    expect(AdvisorArgumentError.isInstance(argument)).toBe(true);
    expect(AdvisorArgumentError.isInstance(timeout)).toBe(false);
    expect(AdvisorTimeoutError.isInstance(unknown)).toBe(true);
    expect(MemoryAppendUnknownError.isInstance(timeout)).toBe(false);
    expect(ComponentError.isInstance(component)).toBe(true);
    expect(AdvisorError.isInstance(new Error('plain'))).toBe(false);
    expect(AdvisorError.isInstance(null)).toBe(false);
  });

  it('are recognised across copies of the library (the marker is a global symbol, not the class)', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('ai-advisors.error.AdvisorArgumentError')]: true });
    expect(AdvisorArgumentError.isInstance(fromAnotherCopy)).toBe(true);
    expect(fromAnotherCopy instanceof AdvisorArgumentError).toBe(false);
  });

  it('have names that clash with neither the AI SDK nor the DOM', () => {
    expect(argument.name).toBe('AdvisorArgumentError');
    expect(timeout.name).toBe('AdvisorTimeoutError');
    expect(unknown.name).toBe('MemoryAppendUnknownError');
  });
});
