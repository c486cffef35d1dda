import { createHash } from 'node:crypto';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';

/**
 * Identifies a turn across its model steps: every step of one
 * `streamText`/`generateText` call repeats the same prompt up to the last
 * user message, then appends the earlier steps' tool calls and results.
 */
export function turnKey(prompt: LanguageModelV4Prompt, advisorValues: unknown): string {
  const lastUser = lastUserIndex(prompt);
  return createHash('sha256')
    .update(JSON.stringify([prompt.slice(0, lastUser + 1), advisorValues ?? null], binaryReplacer))
    .digest('base64url');
}

export function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  return prompt.findLastIndex((message) => message.role === 'user');
}

function binaryReplacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
}
