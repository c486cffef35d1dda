'use client';

import { useChat } from '@ai-sdk/react';
import {
  getToolName,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type DynamicToolUIPart,
  type ToolUIPart,
} from 'ai';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import Markdown from 'react-markdown';
import type { ChatMessage } from '../lib/chat-metadata.ts';

/**
 * The chat page. The conversation lives in the URL (`/?id=<uuid>`): a reload
 * or a shared link shows it again from the server's memory, and "New chat"
 * starts another one.
 */
export default function ChatPage() {
  const [conversation, setConversation] = useState<{ id: string; messages: ChatMessage[] } | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();

  useEffect(() => {
    const url = new URL(window.location.href);
    let id = url.searchParams.get('id');
    if (id === null) {
      id = crypto.randomUUID();
      url.searchParams.set('id', id);
      window.history.replaceState(null, '', url);
    }
    const chatId = id;
    fetch(`/api/chat?id=${encodeURIComponent(chatId)}`)
      .then(async (response) => {
        const body = (await response.json()) as { messages?: ChatMessage[]; error?: string };
        if (!response.ok || body.messages === undefined) throw new Error(body.error ?? `HTTP ${response.status}`);
        setConversation({ id: chatId, messages: body.messages });
      })
      .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : String(error)));
  }, []);

  return (
    <main>
      <header>
        <h1>ai-advisors chat</h1>
        <a href="/" data-testid="new-chat" className="new-chat">
          New chat
        </a>
      </header>
      <p className="hint">
        Ask about Helena Marsh (a biography) or Brightwater Notes (terms of use). Follow-ups use the conversation&apos;s memory.
      </p>
      {loadError !== undefined && (
        <p role="alert" className="error">
          This conversation could not be loaded: {loadError}
        </p>
      )}
      {conversation !== undefined && <Chat id={conversation.id} initialMessages={conversation.messages} />}
    </main>
  );
}

function Chat({ id, initialMessages }: { id: string; initialMessages: ChatMessage[] }) {
  const { messages, sendMessage, regenerate, status, stop, addToolOutput, addToolApprovalResponse } = useChat<ChatMessage>({
    id,
    messages: initialMessages,
    // Answered client tools and approvals go back to the server at once: the turn continues there.
    sendAutomaticallyWhen: (options) =>
      lastAssistantMessageIsCompleteWithToolCalls(options) || lastAssistantMessageIsCompleteWithApprovalResponses(options),
  });
  const toolActions: ToolActions = {
    shareLocation: (toolCallId) => void addToolOutput({ tool: 'getLocation', toolCallId, output: { city: 'Lisbon' } }),
    respond: (approvalId, approved) => void addToolApprovalResponse({ id: approvalId, approved }),
  };
  const [input, setInput] = useState('');
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const busy = status === 'submitted' || status === 'streaming';
  const end = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  // Follow the newest answer while the reader is at the bottom; leave them be once they scroll up to read. Only the
  // reader's own scrolling counts: the page's scrolling, while answers grow, must not switch following off.
  useEffect(() => {
    const onReaderScroll = () =>
      requestAnimationFrame(() => {
        following.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
      });
    const events = ['wheel', 'touchmove', 'keydown'] as const;
    for (const event of events) window.addEventListener(event, onReaderScroll, { passive: true });
    return () => {
      for (const event of events) window.removeEventListener(event, onReaderScroll);
    };
  }, []);
  useEffect(() => {
    if (following.current) end.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const stopAnswer = () => {
    const answering = messages.at(-1);
    if (answering?.role === 'assistant') setStopped((ids) => new Set(ids).add(answering.id));
    void stop();
  };

  const [lastQuestion, setLastQuestion] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setLastQuestion(input);
    setInput('');
  };
  // Retry asks for a new answer to the last question; the server's memory replaces the old answer with it.
  const retry = () => {
    setInput('');
    void regenerate();
  };
  const last = messages.at(-1);
  // A failed question is not lost: it is back in the input, ready to send again.
  useEffect(() => {
    if (status === 'error') setInput((current) => (current === '' ? lastQuestion : current));
  }, [status, lastQuestion]);

  return (
    <>
      {messages.map((message) => (
        <Message key={message.id} message={message} toolActions={toolActions} stopped={stopped.has(message.id)} />
      ))}
      {status === 'ready' && last?.role === 'assistant' && (
        <button type="button" className="secondary retry" data-testid="retry" onClick={retry}>
          Retry
        </button>
      )}
      {status === 'error' && (
        <p role="alert" className="error" data-testid="chat-error">
          Something went wrong and your question was not answered; it is back in the input to send again.{' '}
          <button type="button" className="secondary" data-testid="retry-after-error" onClick={retry}>
            Retry
          </button>
        </p>
      )}
      <form onSubmit={submit}>
        <input
          aria-label="Your question"
          data-testid="chat-input"
          value={input}
          placeholder="Who is Helena Marsh?"
          onChange={(event) => setInput(event.target.value)}
        />
        {busy ? (
          <button type="button" data-testid="stop" onClick={stopAnswer}>
            Stop
          </button>
        ) : (
          <button type="submit" data-testid="send">
            Send
          </button>
        )}
      </form>
      <div ref={end} className="end" />
    </>
  );
}

/** What the page does for a tool: answer the client tool, approve or deny a call. */
interface ToolActions {
  shareLocation(toolCallId: string): void;
  respond(approvalId: string, approved: boolean): void;
}

function Message({ message, toolActions, stopped }: { message: ChatMessage; toolActions: ToolActions; stopped: boolean }) {
  const tools = message.parts.filter(isToolUIPart);
  const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  // A turn that continues after a tool answer or an approval retrieves again: show each source once.
  const sources = [
    ...new Map(
      message.parts.flatMap((part) =>
        part.type === 'source-document'
          ? [[part.sourceId, { id: part.sourceId, title: part.title, ...advisorFields(part.providerMetadata) }] as const]
          : [],
      ),
    ).values(),
  ];
  const { latencyMs, usage, interrupted, outcome } = message.metadata ?? {};
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
      {tools.map((part) => (
        <ToolCall key={part.toolCallId} part={part} actions={toolActions} />
      ))}
      <div data-testid="message-text" className="text">
        {message.role === 'assistant' ? <Markdown>{text}</Markdown> : text}
      </div>
      {sources.length > 0 && (
        <details className="sources" data-testid="sources">
          <summary>
            {sources.length} source{sources.length === 1 ? '' : 's'}
          </summary>
          <ol>
            {sources.map((source) => (
              <li key={source.id}>
                <span data-testid="source-label">
                  {source.title}
                  {source.score !== undefined && <span className="score"> · score {source.score.toFixed(2)}</span>}
                </span>
                {source.snippet !== undefined && <p className="snippet">{source.snippet}</p>}
              </li>
            ))}
          </ol>
        </details>
      )}
      {(stopped || interrupted === true || outcome === 'aborted') && (
        <div className="interrupted" data-testid="interrupted">
          interrupted
        </div>
      )}
      {latencyMs !== undefined && (
        <div className="metadata" data-testid="metadata">
          {latencyMs} ms · {usage?.totalTokens ?? '?'} tokens
        </div>
      )}
    </article>
  );
}

function ToolCall({ part, actions }: { part: ToolUIPart | DynamicToolUIPart; actions: ToolActions }) {
  const name = getToolName(part);
  return (
    <div className="tool" data-testid={`tool-${name}`} data-state={part.state}>
      <span className="tool-name">{name}</span>
      {part.state === 'input-available' && name === 'getLocation' && (
        <button type="button" data-testid="share-location" onClick={() => actions.shareLocation(part.toolCallId)}>
          Share my location
        </button>
      )}
      {part.state === 'approval-requested' && (
        <>
          <span> wants to run with {JSON.stringify(part.input)}</span>
          <button type="button" data-testid="approve" onClick={() => actions.respond(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" data-testid="deny" className="secondary" onClick={() => actions.respond(part.approval.id, false)}>
            Deny
          </button>
        </>
      )}
      {part.state === 'output-available' && <span className="tool-output"> → {JSON.stringify(part.output)}</span>}
      {part.state === 'output-denied' && <span className="tool-output"> declined</span>}
      {part.state === 'output-error' && <span className="tool-output"> failed: {part.errorText}</span>}
    </div>
  );
}

/** The score and snippet the chat client sends with each source (`providerMetadata.advisors`). */
function advisorFields(providerMetadata: unknown): { score?: number; snippet?: string } {
  const advisors = (providerMetadata as { advisors?: { score?: unknown; snippet?: unknown } } | undefined)?.advisors;
  return {
    ...(typeof advisors?.score === 'number' && { score: advisors.score }),
    ...(typeof advisors?.snippet === 'string' && { snippet: advisors.snippet }),
  };
}
