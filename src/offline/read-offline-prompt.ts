import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { parseDocumentContext, type ParsedDocument } from '../prompt/document-context.ts';

/** What the offline model takes from a prompt. */
export interface OfflinePrompt {
  /** The last user message's own text: outside any documents block, without template wording. */
  readonly question: string;
  /** Documents injected into the system instructions or the user messages of the current turn. */
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

  // The current turn: the messages after the last answer. Its user messages may carry the documents
  // apart from the question, so the question is the last one with text of its own.
  const turnStart = prompt.findLastIndex((message) => message.role === 'assistant' || message.role === 'tool') + 1;
  const documents: ParsedDocument[] = [];
  const ownTexts = prompt.map((message, position) => {
    const text = messageText(message);
    if (message.role === 'assistant') return readAssistantText(text) ?? '';
    if (message.role === 'tool') return '';
    const parsed = parseDocumentContext(text);
    if (message.role === 'system' || position >= turnStart) documents.push(...parsed.documents);
    return withoutTemplate(parsed.rest);
  });
  const questionAt = prompt.findLastIndex(
    (message, position) => message.role === 'user' && position >= turnStart && ownTexts[position] !== '',
  );
  return {
    question: questionAt === -1 ? '' : ownTexts[questionAt],
    documents,
    history: ownTexts.filter((text, position) => position !== questionAt && text !== ''),
  };
}

function messageText(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
