'use client';

import { useChat } from '@ai-sdk/react';
import { useState, type FormEvent } from 'react';
import type { ChatMessage } from '../lib/chat-metadata.ts';

/**
 * A chat page: streamed answers, the retrieved passages under each answer
 * (`source-document` parts) and the latency and token usage the metadata
 * passthrough advisor sends as message metadata.
 */
export default function ChatPage() {
  const { messages, sendMessage, status } = useChat<ChatMessage>();
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setInput('');
  };

  return (
    <main>
      <h1>ai-advisors chat</h1>
      <p className="hint">
        Ask about Helena Marsh (a biography) or Brightwater Notes (terms of use). Follow-ups use the conversation&apos;s memory.
      </p>
      {messages.map((message) => (
        <Message key={message.id} message={message} />
      ))}
      {status === 'error' && <p role="alert">Something went wrong; try again.</p>}
      <form onSubmit={submit}>
        <input
          aria-label="Your question"
          data-testid="chat-input"
          value={input}
          placeholder="Who is Helena Marsh?"
          onChange={(event) => setInput(event.target.value)}
        />
        <button type="submit" data-testid="send" disabled={busy}>
          {busy ? 'Answering…' : 'Send'}
        </button>
      </form>
    </main>
  );
}

function Message({ message }: { message: ChatMessage }) {
  const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const sources = message.parts.flatMap((part) =>
    part.type === 'source-document' ? [{ id: part.sourceId, title: part.title, score: scoreOf(part.providerMetadata) }] : [],
  );
  const { latencyMs, usage } = message.metadata ?? {};
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
      <div data-testid="message-text">{text}</div>
      {sources.length > 0 && (
        <ol className="sources" data-testid="sources">
          {sources.map((source) => (
            <li key={source.id}>
              {source.title}
              {source.score !== undefined && <span className="score"> · score {source.score.toFixed(2)}</span>}
            </li>
          ))}
        </ol>
      )}
      {latencyMs !== undefined && (
        <div className="metadata" data-testid="metadata">
          {latencyMs} ms · {usage?.totalTokens ?? '?'} tokens
        </div>
      )}
    </article>
  );
}

function scoreOf(providerMetadata: unknown): number | undefined {
  const score = (providerMetadata as { advisors?: { score?: unknown } } | undefined)?.advisors?.score;
  return typeof score === 'number' ? score : undefined;
}
