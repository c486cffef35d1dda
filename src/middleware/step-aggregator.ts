import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { FinishReason, LanguageModelUsage } from 'ai';
import { asLanguageModelUsage, createNullLanguageModelUsage } from 'ai/internal';
import type { ResponseMessage } from '../chain/advisor.ts';

/**
 * Collects one model step's text, tool calls, finish reason and usage. A
 * class, not an object literal with getters: V8 defines a literal's accessors
 * one runtime call at a time, which cost microseconds on every step.
 */
export class StepAggregator {
  #text = '';
  #finishReason: FinishReason | undefined;
  #usage: LanguageModelUsage = createNullLanguageModelUsage();
  #error: unknown;
  readonly #toolCalls: { toolCallId: string; toolName: string; input: unknown }[] = [];

  get text(): string {
    return this.#text;
  }
  get finishReason(): FinishReason | undefined {
    return this.#finishReason;
  }
  get usage(): LanguageModelUsage {
    return this.#usage;
  }
  get error(): unknown {
    return this.#error;
  }

  observe(part: LanguageModelV4StreamPart): void {
    switch (part.type) {
      case 'text-delta':
        this.#text += part.delta;
        break;
      case 'tool-call':
        this.addContent(part);
        break;
      case 'finish':
        this.#finishReason = part.finishReason.unified;
        this.#usage = asLanguageModelUsage(part.usage);
        break;
      case 'error':
        this.#error ??= part.error;
        break;
    }
  }

  addContent(content: LanguageModelV4Content): void {
    if (content.type === 'text') this.#text += content.text;
    if (content.type === 'tool-call' && !content.providerExecuted) {
      this.#toolCalls.push({ toolCallId: content.toolCallId, toolName: content.toolName, input: parseInput(content.input) });
    }
  }

  /** The step's assistant message; tool calls only when complete (never dangling). */
  message({ includeToolCalls }: { includeToolCalls: boolean }): ResponseMessage | undefined {
    const content = [
      ...(this.#text === '' ? [] : [{ type: 'text' as const, text: this.#text }]),
      ...(includeToolCalls ? this.#toolCalls.map((call) => ({ type: 'tool-call' as const, ...call })) : []),
    ];
    return content.length === 0 ? undefined : { role: 'assistant', content };
  }
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
