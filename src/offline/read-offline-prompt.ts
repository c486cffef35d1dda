import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { parseDocumentContext, type ParsedDocument } from '../prompt/document-context.ts';

/** What the offline model takes from a prompt. */
export interface OfflinePrompt {
  /** The last user message's own text: outside any documents block, without template wording. */
  readonly question: string;
  /** Documents injected into the system instructions or the last user message. */
  readonly documents: readonly ParsedDocument[];
  /** Earlier conversation text (user and assistant messages, instructions), oldest first. */
  readonly history: readonly string[];
}

export interface ReadOfflinePromptOptions {
  /** Templates whose fixed wording is removed to find the question. */
  readonly templates: readonly string[];
  /** Turns an earlier assistant answer into quotable text, or `undefined` to skip it. */
  readonly readAssistantText: (text: string) => string | undefined;
}

/**
 * Splits a prompt into the question, the injected documents, and the history,
 * the way a reader of the rendered prompt would.
 */
export function readOfflinePrompt(
  prompt: LanguageModelV4Prompt,
  { templates, readAssistantText }: ReadOfflinePromptOptions,
): OfflinePrompt {
  const templateWording = templates.map((template) =>
    template
      .split(/\{question\}|\{context\}/)
      .map((literal) => literal.trim())
      .filter((literal) => literal !== ''),
  );
  const withoutTemplate = (text: string) => {
    const wording = templateWording.find((literals) => literals.every((literal) => text.includes(literal)));
    return (wording ?? []).reduce((remaining, literal) => remaining.replace(literal, ''), text).trim();
  };

  const lastUser = prompt.findLastIndex((message) => message.role === 'user');
  const documents: ParsedDocument[] = [];
  const history: string[] = [];
  let question = '';
  prompt.forEach((message, position) => {
    const text = messageText(message);
    if (message.role === 'system' || position === lastUser) {
      const parsed = parseDocumentContext(text);
      documents.push(...parsed.documents);
      if (position === lastUser) question = withoutTemplate(parsed.rest);
      else history.push(withoutTemplate(parsed.rest));
    } else if (message.role === 'user') {
      history.push(withoutTemplate(parseDocumentContext(text).rest));
    } else if (message.role === 'assistant') {
      const quotable = readAssistantText(text);
      if (quotable !== undefined) history.push(quotable);
    }
  });
  return { question, documents, history: history.filter((text) => text !== '') };
}

function messageText(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
