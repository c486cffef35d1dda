import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { FinishReason, LanguageModelUsage } from 'ai';
import { asLanguageModelUsage, createNullLanguageModelUsage } from 'ai/internal';
import type { ResponseMessage } from '../chain/advisor.ts';

/** Collects one model step's text, tool calls, finish reason and usage. */
export function createStepAggregator() {
  let text = '';
  const toolCalls: { toolCallId: string; toolName: string; input: unknown }[] = [];
  let finishReason: FinishReason | undefined;
  let usage: LanguageModelUsage = createNullLanguageModelUsage();
  let error: unknown;

  const addContent = (content: LanguageModelV4Content) => {
    if (content.type === 'text') text += content.text;
    if (content.type === 'tool-call' && !content.providerExecuted) {
      toolCalls.push({ toolCallId: content.toolCallId, toolName: content.toolName, input: parseInput(content.input) });
    }
  };

  return {
    observe(part: LanguageModelV4StreamPart) {
      switch (part.type) {
        case 'text-delta':
          text += part.delta;
          break;
        case 'tool-call':
          addContent(part);
          break;
        case 'finish':
          finishReason = part.finishReason.unified;
          usage = asLanguageModelUsage(part.usage);
          break;
        case 'error':
          error ??= part.error;
          break;
      }
    },
    addContent,
    setFinish(reason: FinishReason, stepUsage: LanguageModelUsage) {
      finishReason = reason;
      usage = stepUsage;
    },
    get text() {
      return text;
    },
    get error() {
      return error;
    },
    get finishReason() {
      return finishReason;
    },
    get usage() {
      return usage;
    },
    /** The step's assistant message; tool calls only when complete (never dangling). */
    message({ includeToolCalls }: { includeToolCalls: boolean }): ResponseMessage | undefined {
      const content = [
        ...(text === '' ? [] : [{ type: 'text' as const, text }]),
        ...(includeToolCalls ? toolCalls.map((call) => ({ type: 'tool-call' as const, ...call })) : []),
      ];
      return content.length === 0 ? undefined : { role: 'assistant', content };
    },
  };
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
