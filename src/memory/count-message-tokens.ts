import type { ModelMessage } from 'ai';
import { inlineFileText, messageParts, toolOutputText } from './message-parts.ts';
import type { Tokenizer } from './tokenizer.ts';

/** Options of `countMessageTokens`. */
export interface CountMessageTokensOptions {
  /** Tokens charged for a binary or URL file (images, audio); providers bill these separately. Default 85. */
  readonly tokensPerFile?: number;
  /** Tokens of chat framing per message (role, separators). Default 4, as in OpenAI's chat format. */
  readonly tokensPerMessage?: number;
}

/**
 * Tokens a message costs in a prompt: its text, reasoning, tool call inputs and
 * tool outputs counted with `tokenizer`, plus framing per message and a fixed
 * estimate per binary file. `tokenizer.load()` must have resolved.
 */
export function countMessageTokens(
  message: ModelMessage,
  tokenizer: Tokenizer,
  { tokensPerFile = 85, tokensPerMessage = 4 }: CountMessageTokensOptions = {},
): number {
  let tokens = tokensPerMessage;
  for (const part of messageParts(message)) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        tokens += tokenizer.countTokens(String(part.text ?? ''));
        break;
      case 'tool-call':
        tokens += tokenizer.countTokens(`${String(part.toolName)} ${JSON.stringify(part.input ?? null)}`);
        break;
      case 'tool-result':
        tokens += tokenizer.countTokens(`${String(part.toolName)} ${toolOutputText(part.output)}`);
        break;
      case 'file':
      case 'image':
      case 'reasoning-file': {
        const text = inlineFileText(part);
        tokens += text === undefined ? tokensPerFile : tokenizer.countTokens(text);
        break;
      }
    }
  }
  return tokens;
}
