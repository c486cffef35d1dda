import type { ToolResultPart } from '@ai-sdk/provider-utils';

/**
 * What this process knows about the server tool calls of the conversations it serves, for `guardServerTools` and
 * the middleware to meet: the step each call came from (its turn in memory, and when that step is stored), and the
 * output the server's tool produced for it. Bounded, and kept as long as the middleware keeps a continuation.
 */
const MAX_CALLS = 10_000;
const KEPT_FOR_MS = 600_000;

/** The step of a tool call: the turn memory stores it in, settled once the step's after hooks (its append) are done. */
export interface ToolCallStep {
  readonly turnId: string;
  readonly stored: Promise<unknown>;
}

const steps = createExpiringMap<ToolCallStep>();
const results = createExpiringMap<ToolResultPart['output']>();

/** The middleware saw the model call `toolCallId` in a step that memory stores under `step.turnId`. */
export function registerToolCallStep(conversationId: string, toolCallId: string, step: ToolCallStep): void {
  steps.set(conversationId, toolCallId, step);
}

export function toolCallStep(conversationId: string, toolCallId: string): ToolCallStep | undefined {
  return steps.get(conversationId, toolCallId);
}

/** The server's tool produced `output` for the call: a continuation in this process puts it in the prompt. */
export function recordToolResult(conversationId: string, toolCallId: string, output: ToolResultPart['output']): void {
  results.set(conversationId, toolCallId, output);
}

export function recordedToolResult(conversationId: string, toolCallId: string): ToolResultPart['output'] | undefined {
  return results.get(conversationId, toolCallId);
}

function createExpiringMap<T>() {
  const entries = new Map<string, { readonly value: T; readonly expires: number }>();
  const keyOf = (conversationId: string, toolCallId: string) => `${conversationId}\u0000${toolCallId}`;
  return {
    set(conversationId: string, toolCallId: string, value: T) {
      const key = keyOf(conversationId, toolCallId);
      entries.delete(key);
      entries.set(key, { value, expires: Date.now() + KEPT_FOR_MS });
      if (entries.size > MAX_CALLS) entries.delete(entries.keys().next().value!);
    },
    get(conversationId: string, toolCallId: string): T | undefined {
      const key = keyOf(conversationId, toolCallId);
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires > Date.now()) return entry.value;
      entries.delete(key);
      return undefined;
    },
  };
}
