'use client';

import { useCallback, useEffect, useState, type FormEvent } from 'react';

interface Thread {
  readonly id: string;
  readonly title: string;
}

/**
 * The user's past chats (`GET /api/threads`, newest first, 20 at a time), each with rename and delete. `version`
 * changes when a turn ends, so a new chat or a newly active one moves to the top.
 */
export function Threads({ currentId, version }: { currentId: string | undefined; version: number }) {
  const [threads, setThreads] = useState<readonly Thread[]>([]);
  const [nextCursor, setNextCursor] = useState<string | undefined>();
  const [editing, setEditing] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  const load = useCallback(async (cursor?: string) => {
    const response = await fetch(`/api/threads${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`);
    if (!response.ok) return setProblem('Your chats could not be loaded.');
    const page = (await response.json()) as { threads: Thread[]; nextCursor?: string };
    setThreads((shown) => (cursor === undefined ? page.threads : [...shown, ...page.threads]));
    setNextCursor(page.nextCursor);
    setProblem(undefined);
  }, []);
  useEffect(() => void load(), [load, version]);

  const rename = async (event: FormEvent<HTMLFormElement>, id: string) => {
    event.preventDefault();
    const title = new FormData(event.currentTarget).get('title');
    const response = await fetch(`/api/threads/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    if (!response.ok) return setProblem(((await response.json()) as { error?: string }).error ?? 'The chat could not be renamed.');
    setEditing(undefined);
    await load();
  };
  const remove = async (id: string) => {
    const response = await fetch(`/api/threads/${id}`, { method: 'DELETE' });
    if (!response.ok) return setProblem('The chat could not be deleted.');
    if (id === currentId) window.location.assign('/');
    else await load();
  };

  return (
    <nav className="threads" aria-labelledby="threads-heading" data-testid="threads">
      <div className="threads-head">
        <h2 id="threads-heading">Your chats</h2>
        <a href="/" data-testid="new-chat" className="new-chat">
          New chat
        </a>
      </div>
      {problem !== undefined && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      {threads.length === 0 && <p className="no-threads">Your chats will be listed here.</p>}
      <ul>
        {threads.map((thread) => (
          <li key={thread.id} data-testid="thread" className={thread.id === currentId ? 'current' : undefined}>
            {editing === thread.id ? (
              <form className="rename" onSubmit={(event) => void rename(event, thread.id)}>
                <input
                  name="title"
                  aria-label="Chat title"
                  defaultValue={thread.title}
                  maxLength={100}
                  autoFocus
                  data-testid="thread-title"
                />
                <button type="submit" data-testid="save-title">
                  Save
                </button>
                <button type="button" className="secondary" onClick={() => setEditing(undefined)}>
                  Cancel
                </button>
              </form>
            ) : (
              <>
                <a href={`/?id=${thread.id}`} aria-current={thread.id === currentId ? 'page' : undefined} data-testid="thread-link">
                  {thread.title}
                </a>
                <button
                  type="button"
                  className="secondary small"
                  aria-label={`Rename “${thread.title}”`}
                  data-testid="rename-thread"
                  title="Rename"
                  onClick={() => setEditing(thread.id)}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="secondary small"
                  aria-label={`Delete “${thread.title}”`}
                  data-testid="delete-thread"
                  title="Delete"
                  onClick={() => void remove(thread.id)}
                >
                  ✕
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {nextCursor !== undefined && (
        <button type="button" className="secondary small" onClick={() => void load(nextCursor)}>
          Older chats
        </button>
      )}
    </nav>
  );
}
