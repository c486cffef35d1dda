'use client';

import { useChat } from '@ai-sdk/react';
import {
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { AnswerMarkdown } from '../components/markdown.tsx';
import { Threads } from '../components/threads.tsx';
import { ToolCard, type ToolActions } from '../components/tool-card.tsx';
import type { ChatMessage } from '../lib/chat-metadata.ts';

const SUGGESTIONS = ['Who is Helena Marsh?', 'Can I get a refund from Brightwater Notes?', 'What time is it?', 'Show me Markdown'];

/**
 * The chat page. The conversation lives in the URL (`/?id=<uuid>`): a reload
 * shows it again from the server's memory, the sidebar lists the user's chats,
 * and "New chat" starts another one.
 */
export default function ChatPage() {
  const [conversation, setConversation] = useState<{ id: string; messages: ChatMessage[]; resume: boolean } | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [threadsVersion, setThreadsVersion] = useState(0);

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
        const body = (await response.json()) as { messages?: ChatMessage[]; resume?: boolean; error?: string };
        if (!response.ok || body.messages === undefined) throw new Error(body.error ?? `HTTP ${response.status}`);
        setConversation({ id: chatId, messages: body.messages, resume: body.resume === true });
      })
      .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : String(error)));
  }, []);

  return (
    <div className="app">
      <header>
        <h1>ai-advisors chat</h1>
      </header>
      {/* After the conversation's request, which issued the user's cookie. */}
      {conversation !== undefined && <Threads currentId={conversation.id} version={threadsVersion} />}
      <main>
        {loadError !== undefined && (
          <p role="alert" className="error">
            This conversation could not be loaded: {loadError}
          </p>
        )}
        {conversation !== undefined && (
          <Chat
            id={conversation.id}
            initialMessages={conversation.messages}
            resume={conversation.resume}
            onTurnEnd={() => setThreadsVersion((version) => version + 1)}
          />
        )}
      </main>
    </div>
  );
}

/** What went wrong with the last request, as the person should hear it. */
interface Problem {
  /** The server refused the question itself (4xx): it was not sent, and sending it again would fail again. */
  readonly rejected: boolean;
  readonly text: string;
}

function problemOf(error: Error): Problem {
  const status = (error as { statusCode?: unknown }).statusCode;
  // chatRoute answers `{ error }`: for a 400 it names what was wrong with the question.
  let reason: string | undefined;
  try {
    const body = JSON.parse(error.message) as { error?: unknown };
    if (typeof body.error === 'string') reason = body.error;
  } catch {
    // A stream error's message, or the browser's own (offline).
  }
  if (typeof status === 'number' && status >= 400 && status < 500) return { rejected: true, text: reason ?? `HTTP ${status}` };
  if (error.message === 'Failed to fetch') return { rejected: false, text: 'The server could not be reached.' };
  return { rejected: false, text: reason ?? error.message };
}

function Chat({
  id,
  initialMessages,
  resume,
  onTurnEnd,
}: {
  id: string;
  initialMessages: ChatMessage[];
  /** The server keeps running answers (REDIS_URL): reconnect to one after a reload. */
  resume: boolean;
  onTurnEnd: () => void;
}) {
  const { messages, setMessages, sendMessage, regenerate, status, error, clearError, stop, addToolOutput, addToolApprovalResponse } =
    useChat<ChatMessage>({
      id,
      messages: initialMessages,
      resume,
      // Answered client tools and approvals go back to the server at once: the turn continues there.
      sendAutomaticallyWhen: (options) =>
        lastAssistantMessageIsCompleteWithToolCalls(options) || lastAssistantMessageIsCompleteWithApprovalResponses(options),
      onFinish: onTurnEnd,
      onError: (failure) => {
        // A refused question never reached memory: take it out of the chat, or useChat would send it with every later one.
        if (problemOf(failure).rejected) setMessages((shown) => withoutLastQuestion(shown));
      },
    });
  const toolActions: ToolActions = {
    shareLocation: (toolCallId) => void addToolOutput({ tool: 'getLocation', toolCallId, output: { city: 'Lisbon' } }),
    respond: (approvalId, approved) => void addToolApprovalResponse({ id: approvalId, approved }),
  };
  const [input, setInput] = useState('');
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const busy = status === 'submitted' || status === 'streaming';
  const problem = error === undefined ? undefined : problemOf(error);
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
  }, [messages, status]);

  const latest = useRef(messages);
  useEffect(() => {
    latest.current = messages;
  }, [messages]);
  const stopAnswer = async () => {
    const answering = messages.at(-1);
    if (answering?.role === 'assistant') setStopped((ids) => new Set(ids).add(answering.id));
    await stop();
    // A resumable answer goes on without its request (a reload reconnects to it): tell the server to stop it.
    if (resume) void fetch(`/api/chat/${id}/stream`, { method: 'DELETE' });
    // The server stops a moment after the page, and memory keeps what the model wrote until then: once it is stored,
    // show the stopped answer as memory keeps it, so that a reload shows the same words.
    const shown = latest.current.length;
    for (let attempt = 0; attempt < 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const response = await fetch(`/api/chat?id=${encodeURIComponent(id)}`);
      if (!response.ok || latest.current.length !== shown) return; // the user has moved on
      const stored = ((await response.json()) as { messages: ChatMessage[] }).messages;
      if (stored.length === shown && stored.at(-1)?.metadata?.interrupted === true) return setMessages(stored);
    }
  };

  const send = (text: string) => {
    if (text.trim() === '' || busy) return;
    following.current = true;
    void sendMessage({ text });
    setInput('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(input);
  };
  // Enter sends, Shift+Enter starts a new line (and Enter while an input method composes a word is the IME's).
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };
  // Retry asks for a new answer to the last question; the server's memory replaces the old answer with it.
  const retry = () => {
    clearError();
    void regenerate();
  };

  const last = messages.at(-1);
  // A question that waits for the user (an approval, the page's tool) is answered with those buttons, not Retry.
  const waitsForUser =
    last?.role === 'assistant' &&
    last.parts.some((part) => isToolUIPart(part) && (part.state === 'approval-requested' || part.state === 'input-available'));
  // The question a server failure left unanswered (an answer may have begun before it).
  const failedQuestion =
    status === 'error' && problem?.rejected === false ? messages.findLast((message) => message.role === 'user')?.id : undefined;
  // Waiting for the first word of the answer (or for the next step after a tool).
  const thinking = busy && (last?.role !== 'assistant' || !last.parts.some((part) => part.type === 'text' && part.text !== ''));

  return (
    <>
      {messages.length === 0 && status === 'ready' && (
        <section className="empty" data-testid="empty-state" aria-labelledby="empty-heading">
          <h2 id="empty-heading">What would you like to know?</h2>
          <p className="hint">
            Ask about Helena Marsh (a biography) or Brightwater Notes (terms of use). Follow-ups use the conversation&apos;s memory.
          </p>
          <ul className="suggestions">
            {SUGGESTIONS.map((suggestion) => (
              <li key={suggestion}>
                <button type="button" className="secondary" data-testid="suggestion" onClick={() => send(suggestion)}>
                  {suggestion}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {messages.map((message, index) => (
        <Message
          key={message.id}
          message={message}
          toolActions={toolActions}
          stopped={stopped.has(message.id)}
          failed={message.id === failedQuestion || message.metadata?.failed === true}
          stale={index < messages.length - 1}
        />
      ))}
      {thinking && (
        <p className="thinking" role="status" data-testid="thinking">
          Thinking…
        </p>
      )}
      {status === 'ready' && last?.role === 'assistant' && !waitsForUser && (
        <button type="button" className="secondary retry" data-testid="retry" onClick={retry}>
          Retry
        </button>
      )}
      <div ref={end} className="end" />
      <div className="composer">
        {problem !== undefined && (
          <p role="alert" className="error" data-testid="chat-error">
            {problem.rejected ? (
              <>Your message was not sent: {problem.text}</>
            ) : (
              <>
                Your question was not answered: {problem.text}{' '}
                <button type="button" className="secondary small" data-testid="retry-after-error" onClick={retry}>
                  Retry
                </button>
              </>
            )}
          </p>
        )}
        <form onSubmit={submit}>
          <textarea
            aria-label="Your question"
            data-testid="chat-input"
            value={input}
            rows={1}
            placeholder="Ask a question (Shift+Enter for a new line)"
            autoFocus
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onKeyDown}
          />
          {/* Stop has a place of its own: a second click on Send never stops the question the first one sent. */}
          {busy && (
            <button type="button" className="secondary" data-testid="stop" onClick={() => void stopAnswer()}>
              Stop
            </button>
          )}
          <button type="submit" data-testid="send" disabled={busy || input.trim() === ''}>
            Send
          </button>
        </form>
      </div>
    </>
  );
}

/** The messages without the last question and what followed it. */
function withoutLastQuestion<M extends UIMessage>(messages: M[]): M[] {
  const question = messages.findLastIndex((message) => message.role === 'user');
  return question === -1 ? messages : messages.slice(0, question);
}

function Message({
  message,
  toolActions,
  stopped,
  failed,
  stale,
}: {
  message: ChatMessage;
  toolActions: ToolActions;
  stopped: boolean;
  failed: boolean;
  stale: boolean;
}) {
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
  const cutOff = stopped || interrupted === true || outcome === 'aborted';
  // An answer that failed before its first part has nothing to show (the alert and the question's mark say it).
  if (message.role === 'assistant' && text === '' && tools.length === 0 && sources.length === 0 && latencyMs === undefined && !cutOff)
    return null;
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
      {tools.map((part) => (
        <ToolCard key={part.toolCallId} part={part} actions={toolActions} stale={stale} />
      ))}
      <div data-testid="message-text" className="text">
        {message.role === 'assistant' ? <AnswerMarkdown text={text} /> : text}
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
      {cutOff && (
        <div className="interrupted" data-testid="interrupted">
          interrupted
        </div>
      )}
      {failed && (
        <div className="failed" data-testid="failed">
          {message.role === 'user' ? 'not answered: the server failed' : 'the answer failed here'}
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

/** The score and snippet the chat client sends with each source (`providerMetadata.advisors`). */
function advisorFields(providerMetadata: unknown): { score?: number; snippet?: string } {
  const advisors = (providerMetadata as { advisors?: { score?: unknown; snippet?: unknown } } | undefined)?.advisors;
  return {
    ...(typeof advisors?.score === 'number' && { score: advisors.score }),
    ...(typeof advisors?.snippet === 'string' && { snippet: advisors.snippet }),
  };
}
