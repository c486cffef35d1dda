import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { convertToLanguageModelPrompt } from 'ai/internal';

/**
 * The model-level prompt seen by advisors: system messages become
 * instructions, the rest are used as AI SDK messages (the shapes agree for
 * text, tool calls and tool results; file parts pass through untouched).
 */
export function fromModelPrompt(prompt: LanguageModelV4Prompt): {
  instructions: string | undefined;
  messages: ModelMessage[];
} {
  let instructions: string | undefined;
  const messages: ModelMessage[] = [];
  for (const message of prompt) {
    if (message.role === 'system') instructions = instructions === undefined ? message.content : `${instructions}\n\n${message.content}`;
    else messages.push(message as ModelMessage);
  }
  return { instructions, messages };
}

/**
 * Turns advised instructions and messages back into a model prompt. Messages
 * that came from the original prompt are kept as they are; messages added by
 * advisors (history, injected context) go through the AI SDK's conversion.
 */
export async function toModelPrompt({
  instructions,
  messages,
  original,
  supportedUrls,
  abortSignal,
}: {
  instructions: string | undefined;
  messages: readonly ModelMessage[];
  original: LanguageModelV4Prompt;
  supportedUrls: Record<string, RegExp[]>;
  abortSignal?: AbortSignal;
}): Promise<LanguageModelV4Prompt> {
  const originals = new Set<unknown>(original);
  const converted: LanguageModelV4Message[] = instructions ? [{ role: 'system', content: instructions }] : [];
  // Added messages are converted in runs, so that a tool call and its result stay together.
  let run: ModelMessage[] = [];
  const flush = async () => {
    if (run.length === 0) return;
    converted.push(
      ...(await convertToLanguageModelPrompt({
        prompt: { instructions: undefined, messages: run },
        supportedUrls,
        download: undefined,
        abortSignal,
      })),
    );
    run = [];
  };
  for (const message of messages) {
    if (originals.has(message)) {
      await flush();
      converted.push(message as LanguageModelV4Message);
    } else {
      run.push(message);
    }
  }
  await flush();
  return converted;
}
