import type { ToolResultPart } from '@ai-sdk/provider-utils';
import type { DynamicToolUIPart, UIMessage } from 'ai';
import type { MemoryEntry, StoredSource, StoredTurnView } from './memory-entry.ts';

/** Metadata of a restored message: whether its answer was cut off (stop, disconnect) or failed (a model error). */
export interface RestoredMessageMetadata {
  readonly interrupted?: boolean;
  /** The model failed during this turn; set on its answer as far as it got, or on the question when nothing came. */
  readonly failed?: boolean;
  readonly [key: string]: unknown;
}

/**
 * A stored conversation as `useChat` shows it, for restoring a chat after a
 * reload or from a shared link: read the whole conversation (a `createChatMemory({ store, window: false })`
 * over the advisor's store, `keepOpenToolCalls: true`) and give the result to `useChat({ id, messages })`.
 * Each turn's assistant and tool messages become one assistant message, as
 * they streamed; tool calls become `dynamic-tool` parts in the state their
 * result, denial or approval request left them in. Ids are stable (a turn's
 * question has the turn id, so a resend or `regenerate()` names its stored
 * turn; the others add their position), so a restored list compares equal across reads. A turn's sources come
 * back as `source-url`/`source-document` parts ahead of its answer, and the metadata it sent to the page
 * (`UIMessageMetadata`: latency, tokens, ...) as the message's metadata, as they streamed: the memory advisors store
 * the metadata as it stands when they store the turn, which is all of it when memory runs outside the metadata
 * passthrough advisor (e.g. `messageMemoryAdvisor({ memory, order: -3000 })`). System messages are not part of it.
 */
export function toUIMessages(entries: readonly MemoryEntry[]): UIMessage<RestoredMessageMetadata>[] {
  const messages: UIMessage<RestoredMessageMetadata>[] = [];
  const tools = new Map<string, DynamicToolUIPart>();
  const approvals = new Map<string, DynamicToolUIPart>();
  const questionIds = new Set<string>();
  entries.forEach(({ message, metadata }, index) => {
    // A turn's question keeps the turn id, so a restored chat can resend or regenerate it as that turn.
    const isQuestion = message.role === 'user' && !questionIds.has(metadata.turnId);
    if (isQuestion) questionIds.add(metadata.turnId);
    const id = isQuestion ? metadata.turnId : `${metadata.turnId}:${index}`;
    const interrupted = metadata.interrupted === true ? { interrupted: true } : undefined;
    if (message.role === 'user') {
      const content = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      const parts = content.flatMap((part) => (part.type === 'text' ? [{ type: 'text' as const, text: part.text }] : []));
      const answered = entries[index + 1]?.metadata.turnId === metadata.turnId;
      messages.push({ id, role: 'user', parts, ...(metadata.failed === true && !answered ? { metadata: { failed: true } } : {}) });
      return;
    }
    if (message.role !== 'assistant' && message.role !== 'tool') return;
    let assistant = messages.at(-1);
    if (assistant?.role !== 'assistant') {
      assistant = { id, role: 'assistant', parts: [] };
      messages.push(assistant);
    }
    restoreView(assistant, metadata.ui);
    if (interrupted) assistant.metadata = { ...assistant.metadata, ...interrupted };
    if (metadata.failed === true) assistant.metadata = { ...assistant.metadata, failed: true };
    const content = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const part of content) {
      if (part.type === 'text') assistant.parts.push({ type: 'text', text: part.text, state: 'done' });
      else if (part.type === 'reasoning') assistant.parts.push({ type: 'reasoning', text: part.text, state: 'done' });
      else if (part.type === 'tool-call') {
        const toolPart: DynamicToolUIPart = {
          type: 'dynamic-tool',
          toolName: part.toolName,
          toolCallId: part.toolCallId,
          state: 'input-available',
          input: part.input,
        };
        tools.set(part.toolCallId, toolPart);
        assistant.parts.push(toolPart);
      } else if (part.type === 'tool-approval-request') {
        const toolPart = tools.get(part.toolCallId);
        if (toolPart === undefined) continue;
        Object.assign(toolPart, { state: 'approval-requested', approval: { id: part.approvalId } });
        approvals.set(part.approvalId, toolPart);
      } else if (part.type === 'tool-approval-response') {
        const toolPart = approvals.get(part.approvalId);
        if (toolPart === undefined) continue;
        const approval = { id: part.approvalId, approved: part.approved, ...(part.reason === undefined ? {} : { reason: part.reason }) };
        Object.assign(toolPart, { state: 'approval-responded', approval });
      } else if (part.type === 'tool-result') {
        const toolPart = tools.get(part.toolCallId);
        if (toolPart !== undefined) Object.assign(toolPart, resultState(part, toolPart));
      }
    }
  });
  return messages;
}

/** The turn's sources (first, as they streamed, each once) and its UI message metadata, on its assistant message. */
function restoreView(assistant: UIMessage<RestoredMessageMetadata>, view: StoredTurnView | undefined): void {
  if (view === undefined) return;
  if (view.metadata !== undefined) assistant.metadata = { ...assistant.metadata, ...view.metadata };
  const shown = new Set(
    assistant.parts.flatMap((part) => (part.type === 'source-url' || part.type === 'source-document' ? [part.sourceId] : [])),
  );
  const sources = (view.sources ?? []).filter((source) => !shown.has(source.id)).map(sourcePart);
  const firstOther = assistant.parts.findIndex((part) => part.type !== 'source-url' && part.type !== 'source-document');
  assistant.parts.splice(firstOther === -1 ? assistant.parts.length : firstOther, 0, ...sources);
}

function sourcePart(source: StoredSource): UIMessage['parts'][number] {
  const providerMetadata = source.providerMetadata === undefined ? {} : { providerMetadata: source.providerMetadata as never };
  if (source.sourceType === 'url') {
    return {
      type: 'source-url',
      sourceId: source.id,
      url: source.url,
      ...(source.title === undefined ? {} : { title: source.title }),
      ...providerMetadata,
    };
  }
  return {
    type: 'source-document',
    sourceId: source.id,
    mediaType: source.mediaType,
    title: source.title,
    ...(source.filename === undefined ? {} : { filename: source.filename }),
    ...providerMetadata,
  };
}

/** The state a tool result leaves its call in; an approval, when the call had one, stays with it. */
function resultState({ output }: ToolResultPart, { approval }: DynamicToolUIPart): Partial<DynamicToolUIPart> {
  switch (output.type) {
    case 'execution-denied':
      return {
        state: 'output-denied',
        approval: { id: approval?.id ?? '', approved: false, ...(output.reason === undefined ? {} : { reason: output.reason }) },
      } as Partial<DynamicToolUIPart>;
    case 'error-text':
    case 'error-json':
      return { state: 'output-error', errorText: typeof output.value === 'string' ? output.value : JSON.stringify(output.value) };
    case 'text':
    case 'json':
      return { state: 'output-available', output: output.value };
    default:
      return { state: 'output-available', output };
  }
}
