import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type ChatMemory,
  createChatMemory,
  type MemoryEntry,
  type MemoryEntryMetadata,
  type MemoryTurn,
  type SettlingChatMemoryStore,
  type ThreadedChatMemoryStore,
} from '../memory/index.ts';

/** Every message role and part type the AI SDK accepts, with binary data in each of its forms. */
function everyMessageType(): ModelMessage[] {
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  const arrayBuffer = new Uint8Array([9, 8, 7]).buffer;
  return [
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'Describe these. Unicode: ñ 漢字 🙂, NUL \u0000 and "quotes"',
          providerOptions: { openai: { detail: 'low' } },
        },
        { type: 'image', image: bytes, mediaType: 'image/png' },
        { type: 'image', image: new URL('https://example.com/cat.png') },
        { type: 'file', data: Buffer.from('a pdf'), mediaType: 'application/pdf', filename: 'a.pdf' },
        { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'image/jpeg' },
        { type: 'file', data: arrayBuffer, mediaType: 'application/octet-stream' },
        { type: 'file', data: { type: 'url', url: new URL('https://example.com/doc.pdf') }, mediaType: 'application/pdf' },
        { type: 'file', data: { type: 'text', text: 'inline text document' }, mediaType: 'text/plain' },
        { type: 'file', data: { type: 'reference', reference: { openai: 'file-123' } }, mediaType: 'application/pdf' },
        { type: 'file', data: 'aGVsbG8=', mediaType: 'text/plain' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'I should look this up.', providerOptions: { anthropic: { signature: 'sig' } } },
        { type: 'reasoning-file', data: { type: 'data', data: bytes }, mediaType: 'image/png' },
        {
          type: 'tool-call',
          toolCallId: 'call-1',
          toolName: 'lookup',
          // Inputs that look like codec tags or prototype keys must survive as plain data.
          input: { query: 'cats', nested: { '$ai-advisors': 'url', value: 'x' }, list: [1, null, true] },
        },
        {
          type: 'tool-call',
          toolCallId: 'call-2',
          toolName: 'search',
          input: JSON.parse('{"__proto__": {"polluted": true}}'),
          providerExecuted: true,
        },
        { type: 'tool-result', toolCallId: 'call-2', toolName: 'search', output: { type: 'json', value: { hits: 3 } } },
        { type: 'custom', kind: 'openai.compaction', providerOptions: { openai: { id: 'c1' } } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-1',
          toolName: 'lookup',
          output: { type: 'json', value: { found: ['a', 'b'], score: 0.5 } },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'call-3', toolName: 'lookup', input: {} },
        { type: 'tool-call', toolCallId: 'call-4', toolName: 'lookup', input: {} },
        { type: 'tool-call', toolCallId: 'call-5', toolName: 'lookup', input: {} },
        { type: 'tool-call', toolCallId: 'call-6', toolName: 'render', input: {} },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call-3', toolName: 'lookup', output: { type: 'text', value: 'plain' } },
        { type: 'tool-result', toolCallId: 'call-4', toolName: 'lookup', output: { type: 'error-text', value: 'boom' } },
        { type: 'tool-result', toolCallId: 'call-5', toolName: 'lookup', output: { type: 'execution-denied', reason: 'no' } },
        {
          type: 'tool-result',
          toolCallId: 'call-6',
          toolName: 'render',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'rendered' },
              { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'image/png' },
            ],
          },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Here you go.' },
        { type: 'file', data: bytes, mediaType: 'image/png' },
      ],
    },
    { role: 'assistant', content: 'A plain string answer.', providerOptions: { openai: { itemId: 'msg_1' } } },
  ];
}

export function entriesOf(messages: readonly ModelMessage[], metadata: Partial<MemoryEntryMetadata> = {}): MemoryEntry[] {
  const turnMetadata: MemoryEntryMetadata = { turnId: crypto.randomUUID(), createdAt: new Date(), ...metadata };
  return messages.map((message) => ({ message, metadata: turnMetadata }));
}

/** A turn to append under a fresh key and attempt id. */
export function turnOf(entries: readonly MemoryEntry[], system?: MemoryEntry): MemoryTurn {
  return { key: crypto.randomUUID(), attemptId: crypto.randomUUID(), entries, ...(system === undefined ? {} : { system }) };
}

function userTurn(text: string): MemoryTurn {
  return turnOf(
    entriesOf([
      { role: 'user', content: text },
      { role: 'assistant', content: `re: ${text}` },
    ]),
  );
}

const contents = (entries: readonly MemoryEntry[]) => entries.map((entry) => entry.message.content);

/** A question and its answer stored through chat memory as turn `turnId`, a regeneration of `regenerates` when given. */
function askAndAnswer(
  memory: ChatMemory,
  conversation: string,
  { turnId, question, answer, regenerates }: { turnId: string; question: string; answer: string; regenerates?: string },
) {
  return memory.appendTurn(
    conversation,
    [
      { role: 'user', content: question },
      { role: 'assistant', content: answer },
    ],
    { metadata: { turnId, ...(regenerates === undefined ? {} : { regenerates }) } },
  );
}

/**
 * The behaviour every ChatMemoryStore must have. `createStore` returns a fresh
 * store; tests use distinct conversation ids so stores may share a backend.
 */
export function describeChatMemoryStoreContract(name: string, createStore: () => SettlingChatMemoryStore): void {
  const id = (suffix: string) => `${name}-${suffix}-${crypto.randomUUID()}`;

  describe(`${name}: ChatMemoryStore contract`, () => {
    it('round-trips every message role and part type exactly, binary data and URLs included', async () => {
      const store = createStore();
      const conversation = id('round-trip');
      const messages = everyMessageType();
      const system: MemoryEntry = entriesOf([{ role: 'system', content: 'Be brief.' }])[0];
      const entries = entriesOf(messages, { retrieved: [{ id: 'doc-1', score: 0.87 }], interrupted: false, custom: { a: 1 } });
      expect(await store.appendTurn(conversation, turnOf(entries, system))).toBe('stored');

      const history = await store.read(conversation);
      expect(history.system).toEqual(system);
      expect(history.entries).toEqual(entries);
      const user = history.entries[0].message.content as Array<Record<string, unknown>>;
      expect(user[1].image).toBeInstanceOf(Uint8Array);
      expect(user[2].image).toBeInstanceOf(URL);
      expect(Buffer.isBuffer(user[3].data)).toBe(true);
      expect(user[5].data).toBeInstanceOf(ArrayBuffer);
      expect(history.entries[0].metadata.createdAt).toBeInstanceOf(Date);
      const call = (history.entries[1].message.content as Array<{ input?: object }>)[3];
      expect(Object.getPrototypeOf(call.input)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("keeps a turn's view (retrieved documents, the sources and metadata the page showed) on each of its entries, in whole and windowed reads", async () => {
      const store = createStore();
      const conversation = id('view');
      const view = {
        retrieved: [{ id: 'doc-1', score: 0.87 }, { id: 'doc-2' }],
        ui: {
          sources: [{ sourceType: 'document' as const, id: 'doc-1', mediaType: 'text/plain', title: 'Doc 1' }],
          metadata: { latencyMs: 12, at: new Date('2026-01-02T03:04:05Z'), note: 'ok' },
        },
      };
      const entries = entriesOf(
        [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
        view,
      );
      expect(await store.appendTurn(conversation, turnOf(entries))).toBe('stored');
      for (const read of [await store.read(conversation), await store.read(conversation, { last: 2 })]) {
        expect(read.entries).toEqual(entries);
        const [question, answer] = read.entries.map((entry) => entry.metadata);
        expect(answer.ui?.metadata?.at).toEqual(new Date('2026-01-02T03:04:05Z'));
        expect(JSON.parse(JSON.stringify(question))).toEqual(JSON.parse(JSON.stringify(entries[0].metadata)));
        expect({ ...answer, retrieved: [] }).toEqual({ ...entries[1].metadata, retrieved: [] });
        (question as { retrieved?: unknown }).retrieved = undefined;
        expect(question.retrieved).toBeUndefined();
        expect(answer.retrieved).toEqual(view.retrieved);
      }
    });

    it('reads the same history with omitTurnView, each turn view either left out or whole', async () => {
      const store = createStore();
      const conversation = id('omit-view');
      const turns = Array.from({ length: 6 }, (_, turn) =>
        entriesOf(
          [
            { role: 'user', content: `q${turn}` },
            { role: 'assistant', content: `a${turn}` },
          ],
          turn % 2 === 0 ? { retrieved: [{ id: `doc-${turn}`, score: turn }], ui: { sources: [], metadata: { turn } } } : {},
        ),
      );
      for (const entries of turns) expect(await store.appendTurn(conversation, turnOf(entries))).toBe('stored');
      const withoutView = (entry: MemoryEntry) => {
        const { retrieved, ui, ...rest } = entry.metadata;
        return { message: entry.message, metadata: rest };
      };
      for (const last of [undefined, 5]) {
        const full = (await store.read(conversation, { last })).entries;
        const omitted = (await store.read(conversation, { last, omitTurnView: true })).entries;
        expect(omitted.map(withoutView)).toEqual(full.map(withoutView));
        omitted.forEach((entry, index) => {
          for (const key of ['retrieved', 'ui'] as const) {
            if (key in entry.metadata) expect(entry.metadata[key]).toEqual(full[index].metadata[key]);
          }
        });
      }
    });

    it('returns turns in append order and the latest N entries on request', async () => {
      const store = createStore();
      const conversation = id('order');
      for (let turn = 0; turn < 5; turn++) await store.appendTurn(conversation, userTurn(`q${turn}`));
      const all = await store.read(conversation);
      expect(all.entries.map((entry) => entry.message.content)).toEqual([0, 1, 2, 3, 4].flatMap((turn) => [`q${turn}`, `re: q${turn}`]));
      const tail = await store.read(conversation, { last: 3 });
      expect(tail.entries.map((entry) => entry.message.content)).toEqual(['re: q3', 'q4', 're: q4']);
      expect((await store.read(conversation, { last: 0 })).entries).toEqual([]);
      expect((await store.read(conversation, { last: 100 })).entries).toHaveLength(10);
    });

    it('keeps one system message, replaced by the latest, apart from the entries', async () => {
      const store = createStore();
      const conversation = id('system');
      await store.appendTurn(conversation, { ...userTurn('a'), system: entriesOf([{ role: 'system', content: 'old' }])[0] });
      await store.appendTurn(conversation, { ...userTurn('b'), system: entriesOf([{ role: 'system', content: 'new' }])[0] });
      await store.appendTurn(conversation, userTurn('c'));
      const history = await store.read(conversation, { last: 2 });
      expect(history.system?.message).toEqual({ role: 'system', content: 'new' });
      expect(history.entries.map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
    });

    it('stores a turn of a system message alone, keeping the entries, and a first turn of one alone', async () => {
      const store = createStore();
      const conversation = id('system-alone');
      await store.appendTurn(conversation, turnOf([], entriesOf([{ role: 'system', content: 'first' }])[0]));
      expect(await store.read(conversation)).toEqual({
        system: expect.objectContaining({ message: { role: 'system', content: 'first' } }),
        entries: [],
      });
      await store.appendTurn(conversation, userTurn('a'));
      await store.appendTurn(conversation, turnOf([], entriesOf([{ role: 'system', content: 'second' }])[0]));
      await store.appendTurn(conversation, userTurn('b'));
      const history = await store.read(conversation);
      expect(history.system?.message).toEqual({ role: 'system', content: 'second' });
      expect(contents(history.entries)).toEqual(['a', 're: a', 'b', 're: b']);
      expect(contents((await store.read(conversation, { last: 3 })).entries)).toEqual(['re: a', 'b', 're: b']);
    });

    it('keeps conversations apart even when ids contain key separators, glob and escape characters', async () => {
      const store = createStore();
      const base = id('iso');
      const ids = [
        base,
        `${base}:x`,
        `${base}*`,
        `${base}?`,
        `${base}[a-z]`,
        `${base}%3A`,
        `${base}%`,
        `${base}}`,
        `${base}{x}`,
        `${base}:messages`,
        `${base}' OR '1'='1`,
      ];
      await Promise.all(ids.map((conversation) => store.appendTurn(conversation, userTurn(conversation))));
      for (const conversation of ids) {
        const history = await store.read(conversation);
        expect(history.entries.map((entry) => entry.message.content)).toEqual([conversation, `re: ${conversation}`]);
      }
      await store.clear(`${base}*`);
      expect((await store.read(`${base}*`)).entries).toEqual([]);
      expect((await store.read(base)).entries).toHaveLength(2);
    });

    it('loses no message when 100 turns are appended concurrently to one conversation', async () => {
      const store = createStore();
      const conversation = id('concurrent');
      await Promise.all(Array.from({ length: 100 }, (_, turn) => store.appendTurn(conversation, userTurn(`t${turn}`))));
      const { entries } = await store.read(conversation);
      expect(entries).toHaveLength(200);
      // Each turn is contiguous: a question is always followed by its own answer.
      for (let index = 0; index < entries.length; index += 2) {
        expect(entries[index + 1].message.content).toBe(`re: ${String(entries[index].message.content)}`);
        expect(entries[index + 1].metadata.turnId).toBe(entries[index].metadata.turnId);
      }
      expect(new Set(entries.map((entry) => entry.message.content)).size).toBe(200);
    });

    it('clears a conversation, system message included', async () => {
      const store = createStore();
      const conversation = id('clear');
      await store.appendTurn(conversation, { ...userTurn('a'), system: entriesOf([{ role: 'system', content: 's' }])[0] });
      await store.clear(conversation);
      expect(await store.read(conversation)).toEqual({ entries: [] });
    });

    it('rejects invalid conversation ids before touching the backend', async () => {
      const store = createStore();
      for (const bad of ['', '   ', 'x'.repeat(513), 'lone \uD800 surrogate', 'nul\u0000', 42 as unknown as string]) {
        await expect(store.appendTurn(bad, userTurn('x'))).rejects.toMatchObject({ name: 'AdvisorArgumentError' });
        await expect(store.settleAppend(bad, userTurn('x'))).rejects.toMatchObject({ name: 'AdvisorArgumentError' });
        await expect(store.read(bad)).rejects.toMatchObject({ name: 'AdvisorArgumentError' });
      }
      await expect(store.read(id('limit'), { last: -1 })).rejects.toMatchObject({ name: 'AdvisorArgumentError' });
    });

    it('rejects invalid append keys and attempt ids before touching the backend', async () => {
      const store = createStore();
      for (const bad of ['', 'k'.repeat(513), 'lone \uD800', 'nul\u0000', 7 as unknown as string]) {
        await expect(store.appendTurn(id('key'), { ...userTurn('x'), key: bad })).rejects.toMatchObject({
          name: 'AdvisorArgumentError',
          argument: 'key',
        });
        await expect(store.appendTurn(id('key'), { ...userTurn('x'), attemptId: bad })).rejects.toMatchObject({
          name: 'AdvisorArgumentError',
          argument: 'attemptId',
        });
        await expect(store.settleAppend(id('key'), { key: bad, attemptId: 'a' })).rejects.toMatchObject({ name: 'AdvisorArgumentError' });
      }
    });

    it('stores a key once: appending it again is a duplicate and leaves the history unchanged', async () => {
      const store = createStore();
      const conversation = id('duplicate');
      const first = userTurn('once');
      expect(await store.appendTurn(conversation, first)).toBe('stored');
      const retry = { ...userTurn('once again'), key: first.key, system: entriesOf([{ role: 'system', content: 'retry' }])[0] };
      expect(await store.appendTurn(conversation, retry)).toBe('duplicate');
      expect(await store.appendTurn(conversation, first)).toBe('duplicate');
      const history = await store.read(conversation);
      expect(contents(history.entries)).toEqual(['once', 're: once']);
      expect(history.system).toBeUndefined();
      // Keys belong to their conversation.
      expect(await store.appendTurn(id('other'), first)).toBe('stored');
    });

    it('tells a key reused for other content (another digest) from a resend: conflict, not duplicate, and nothing written', async () => {
      const store = createStore();
      const conversation = id('digest');
      const first = { ...userTurn('original'), digest: 'sha256:original' };
      expect(await store.appendTurn(conversation, first)).toBe('stored');
      expect(await store.appendTurn(conversation, { ...userTurn('edited'), key: first.key, digest: 'sha256:edited' })).toBe('conflict');
      expect(await store.appendTurn(conversation, { ...userTurn('resent'), key: first.key, digest: 'sha256:original' })).toBe('duplicate');
      expect(await store.appendTurn(conversation, { ...userTurn('no digest'), key: first.key })).toBe('duplicate');
      expect(contents((await store.read(conversation)).entries)).toEqual(['original', 're: original']);
      await expect(store.appendTurn(conversation, { ...userTurn('bad'), digest: '' })).rejects.toMatchObject({
        name: 'AdvisorArgumentError',
        argument: 'digest',
      });
    });

    it('stores exactly one of 20 concurrent appends of one key, and every other one is a duplicate', async () => {
      const store = createStore();
      const conversation = id('concurrent-key');
      const key = crypto.randomUUID();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, attempt) => store.appendTurn(conversation, { ...userTurn(`a${attempt}`), key })),
      );
      expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(19);
      const { entries } = await store.read(conversation);
      const stored = outcomes.indexOf('stored');
      expect(contents(entries)).toEqual([`a${stored}`, `re: a${stored}`]);
    });

    it('settles an attempt that never reached it as absent, and then cancels that attempt when it arrives', async () => {
      const store = createStore();
      const conversation = id('settle-absent');
      const late = userTurn('late');
      expect(await store.settleAppend(conversation, late)).toBe('absent');
      expect(await store.settleAppend(conversation, late)).toBe('absent');
      expect(await store.appendTurn(conversation, late)).toBe('cancelled');
      expect((await store.read(conversation)).entries).toEqual([]);
      // The key itself is not taken: a new attempt (a retry) stores it.
      expect(await store.appendTurn(conversation, { ...late, attemptId: crypto.randomUUID() })).toBe('stored');
      expect(contents((await store.read(conversation)).entries)).toEqual(['late', 're: late']);
    });

    it('settles a stored attempt as stored, and an attempt whose key another attempt stored as stored too', async () => {
      const store = createStore();
      const conversation = id('settle-stored');
      const turn = userTurn('kept');
      await store.appendTurn(conversation, turn);
      expect(await store.settleAppend(conversation, turn)).toBe('stored');
      const other = { key: turn.key, attemptId: crypto.randomUUID() };
      expect(await store.settleAppend(conversation, other)).toBe('stored');
      // Settled, that other attempt writes nothing when it arrives: its key is stored.
      expect(await store.appendTurn(conversation, { ...userTurn('late'), ...other })).toBe('duplicate');
      expect(contents((await store.read(conversation)).entries)).toEqual(['kept', 're: kept']);
    });

    it('forgets keys on clear: the same key can be appended again', async () => {
      const store = createStore();
      const conversation = id('clear-keys');
      const turn = userTurn('again');
      await store.appendTurn(conversation, turn);
      await store.clear(conversation);
      expect(await store.settleAppend(conversation, { key: turn.key, attemptId: crypto.randomUUID() })).toBe('absent');
      expect(await store.appendTurn(conversation, { ...turn, attemptId: crypto.randomUUID() })).toBe('stored');
      expect(contents((await store.read(conversation)).entries)).toEqual(['again', 're: again']);
    });

    it('replaces a regenerated turn and the turns after it: reads show the new answer where the old turn was', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const conversation = id('regenerate');
      const ask = (turnId: string, question: string, answer: string, regenerates?: string) =>
        askAndAnswer(memory, conversation, { turnId, question, answer, regenerates });
      await ask('t1', 'Q1', 'A1');
      await ask('t2', 'Q2', 'A2');
      await ask('t3', 'Q3', 'A3');
      await ask('r2', 'Q2', 'A2 again', 't2');
      await ask('t4', 'Q4', 'A4');
      expect((await memory.messages(conversation)).map((message) => message.content)).toEqual(['Q1', 'A1', 'Q2', 'A2 again', 'Q4', 'A4']);
    });

    it('keeps a regenerated turn whole when it began before the newest 256 entries a store looks through', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const conversation = id('regenerate-far-back');
      // The turn's question is entry 1 of 257, its answer entry 2: the answer is among the newest 256, the question not.
      await askAndAnswer(memory, conversation, { turnId: 't', question: 'Q', answer: 'A' });
      for (let turn = 0; turn < 255; turn++) {
        await memory.appendTurn(conversation, [{ role: 'user', content: `note ${turn}` }], { metadata: { turnId: `n${turn}` } });
      }
      await askAndAnswer(memory, conversation, { turnId: 'r', question: 'Q', answer: 'A again', regenerates: 't' });
      expect((await memory.messages(conversation)).map((message) => message.content)).toEqual(['Q', 'A again']);
    });

    it('keeps one turn for a turn regenerated by 8 requests at once: nothing replaced survives beside its replacement', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const conversation = id('regenerate-concurrently');
      await askAndAnswer(memory, conversation, { turnId: 't', question: 'Q', answer: 'A' });
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          askAndAnswer(memory, conversation, { turnId: `r${index}`, question: 'Q', answer: `A${index}`, regenerates: 't' }),
        ),
      );
      const read = await memory.read(conversation);
      expect(read.map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
      expect(new Set(read.map((entry) => entry.metadata.turnId)).size).toBe(1);
      expect(read[1].message.content).toMatch(/^A\d$/);
    });
  });
}

/**
 * The behaviour of a store's threads (`recordThreadActivity`, `listThreads`, `renameThread`, `deleteThread`),
 * through chat memory as an app uses it. `createStore` returns a fresh store; users and conversations are unique per
 * run, so stores may share a backend.
 */
export function describeThreadStoreContract(name: string, createStore: () => ThreadedChatMemoryStore): void {
  const id = (suffix: string) => `${name}-${suffix}-${crypto.randomUUID()}`;
  const ask = (question: string): ModelMessage[] => [
    { role: 'user', content: question },
    { role: 'assistant', content: `re: ${question}` },
  ];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

  describe(`${name}: threads per user`, () => {
    it('lists a user’s conversations, most recently active first, titled by their first question, with message counts', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const [alice, bob] = [id('alice'), id('bob')];
      const [first, second] = [id('first'), id('second')];
      await memory.appendTurn(first, ask('How do I   reset my\npassword?'), { userId: alice });
      await pause();
      await memory.appendTurn(second, ask('Where is the office?'), { userId: alice });
      await memory.appendTurn(id('bobs'), ask('Private question'), { userId: bob });
      await pause();
      await memory.appendTurn(first, ask('And the username?'), { userId: alice });

      const { threads, nextCursor } = await memory.threads(alice);
      expect(threads.map((thread) => [thread.conversationId, thread.title, thread.messageCount])).toEqual([
        [first, 'How do I reset my password?', 4],
        [second, 'Where is the office?', 2],
      ]);
      expect(nextCursor).toBeUndefined();
      expect(threads[0]!.updatedAt.getTime()).toBeGreaterThan(threads[0]!.createdAt.getTime());
      expect((await memory.threads(bob)).threads.map((thread) => thread.title)).toEqual(['Private question']);
      expect((await memory.threads(id('nobody'))).threads).toEqual([]);
    });

    it('pages through 25 threads with a cursor: each once, in order, whatever appends arrive concurrently', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const user = id('pager');
      const conversations = Array.from({ length: 25 }, (_, index) => id(`c${index}`));
      await Promise.all(
        conversations.map((conversation, index) => memory.appendTurn(conversation, ask(`Question ${index}`), { userId: user })),
      );
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await memory.threads(user, { limit: 10, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.threads.length).toBeLessThanOrEqual(10);
        seen.push(...page.threads.map((thread) => thread.conversationId));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect([...seen].sort()).toEqual([...conversations].sort());
      const all = (await memory.threads(user, { limit: 100 })).threads;
      expect(all.map((thread) => thread.conversationId)).toEqual(seen);
      for (let index = 1; index < all.length; index++)
        expect(all[index - 1]!.updatedAt.getTime()).toBeGreaterThanOrEqual(all[index]!.updatedAt.getTime());
    });

    it('belongs to its first user: another user’s turns, renames and deletes neither list, change nor reveal it', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const [owner, intruder] = [id('owner'), id('intruder')];
      const conversation = id('owned');
      await memory.appendTurn(conversation, ask('Mine'), { userId: owner });
      await memory.appendTurn(conversation, ask('Injected'), { userId: intruder });
      expect((await memory.threads(intruder)).threads).toEqual([]);
      expect(await memory.renameThread(intruder, conversation, 'Hijacked')).toBe(false);
      expect(await memory.deleteThread(intruder, conversation)).toBe(false);
      expect(await memory.renameThread(intruder, id('absent'), 'Anything')).toBe(false);
      expect(await memory.deleteThread(intruder, id('absent'))).toBe(false);
      const [thread] = (await memory.threads(owner)).threads;
      expect(thread).toMatchObject({ conversationId: conversation, title: 'Mine', messageCount: 4 });
    });

    it('renames a thread, and deletes it with its whole conversation; clear removes the thread too', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const user = id('user');
      const [kept, deleted, cleared] = [id('kept'), id('deleted'), id('cleared')];
      for (const conversation of [kept, deleted, cleared])
        await memory.appendTurn(conversation, ask(`About ${conversation}`), { userId: user });
      expect(await memory.renameThread(user, kept, '  Office   questions ')).toBe(true);
      expect(await memory.deleteThread(user, deleted)).toBe(true);
      await memory.clear(cleared);
      const { threads } = await memory.threads(user);
      expect(threads.map((thread) => [thread.conversationId, thread.title])).toEqual([[kept, 'Office questions']]);
      expect(await memory.read(deleted)).toEqual([]);
      expect(await memory.deleteThread(user, deleted)).toBe(false);
    });

    it('refuses bad arguments with a typed error before touching the backend', async () => {
      const memory = createChatMemory({ store: createStore(), window: false });
      const user = id('user');
      await expect(memory.threads(user, { limit: 0 })).rejects.toThrow(/limit: expected an integer from 1 to 100/);
      await expect(memory.threads(user, { cursor: 'not-a-cursor' })).rejects.toThrow(/cursor: expected the nextCursor/);
      await expect(memory.threads('')).rejects.toThrow(/userId: expected a non-empty string/);
      await expect(memory.renameThread(user, id('c'), '   ')).rejects.toThrow(/title: expected a non-empty string/);
    });
  });
}
