import { createOpenAI } from '@ai-sdk/openai';
import {
  createAgentUIStreamResponse,
  jsonSchema,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  isStepCount,
  tool,
  ToolLoopAgent,
  type UIMessage,
  wrapLanguageModel,
} from 'ai';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { messageMemoryAdvisor, questionAnswerAdvisor, safeguardAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, type ChatMemoryStore, guardServerTools, type Retriever } from '../../src/index.ts';
import { createChatMemory, createInMemoryChatMemoryStore } from '../../src/memory/index.ts';
import { createPostgresChatMemoryStore } from '../../src/postgres/index.ts';
import { createRedisChatMemoryStore } from '../../src/redis/index.ts';
import { createBm25Retriever } from '../../src/retrieval/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { describeWithServices, type ServiceVariable } from '../helpers/services.ts';
import { startRoute, TestChat } from '../helpers/use-chat-driver.ts';

const noInput = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });

/** Server tools that count their runs (one needs approval), and a client-side tool the page answers. */
function agentTools() {
  const runs = { lookup: 0, deleteNotes: 0 };
  const tools = {
    lookup: tool({
      description: 'Looks up office facts',
      inputSchema: noInput,
      execute: async () => ({ hours: `9-17 (run ${++runs.lookup})` }),
    }),
    deleteNotes: tool({
      description: 'Deletes the notes',
      inputSchema: noInput,
      needsApproval: true,
      execute: async () => ({ deleted: ++runs.deleteNotes }),
    }),
    getLocation: tool({ description: "The user's location, from the browser", inputSchema: noInput }),
  };
  return { tools, runs };
}

/** The handbook retriever, counting its searches: one per turn, however many steps the agent's loop takes. */
function countingRetriever() {
  const handbook = createBm25Retriever({
    name: 'handbook',
    documents: [{ id: 'hours', text: 'The office is open from nine to five on weekdays.', metadata: {} }],
  });
  const searches: string[] = [];
  const retriever: Retriever = {
    name: 'handbook',
    retrieve: (query, options) => (searches.push(query), handbook.retrieve(query, options)),
  };
  return { retriever, searches };
}

const stores: [string, ServiceVariable[], () => ChatMemoryStore & { close?(): Promise<void> }][] = [
  ['in-memory', [], () => createInMemoryChatMemoryStore()],
  ['redis', ['REDIS_URL'], () => createRedisChatMemoryStore({ keyPrefix: `ai-advisors-test:${crypto.randomUUID()}` })],
  ['postgres', ['DATABASE_URL'], () => createPostgresChatMemoryStore()],
];

for (const [name, variables, createStore] of stores)
  describeWithServices(
    `AI SDK 7's ToolLoopAgent with advisors (middleware), createAgentUIStreamResponse and useChat, on the ${name} store`,
    variables,
    () => {
      let fixture: OpenAIFixture;
      let route: Awaited<ReturnType<typeof startRoute>>;
      const store = createStore();
      const memory = createChatMemory({ store, window: false });
      const { tools, runs } = agentTools();
      const { retriever, searches } = countingRetriever();

      beforeAll(async () => {
        fixture = await startOpenAIFixture();
        const openai = createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });
        // One model for every request: the middleware keeps a turn's steps together across the agent's loop.
        const model = wrapLanguageModel({
          model: openai.chat('gpt-4o-mini'),
          middleware: advisorMiddleware({
            advisors: [
              safeguardAdvisor({ blockedTerms: ['bomb'] }),
              messageMemoryAdvisor({ memory }),
              questionAnswerAdvisor({ retriever }),
            ],
            clientTools: ['getLocation'],
          }),
        });
        route = await startRoute(async (request) => {
          const { id, messages } = (await request.json()) as { id: string; messages: UIMessage[] };
          const agent = new ToolLoopAgent({
            model,
            instructions: 'You help with the office.',
            tools: guardServerTools(tools, { memory, conversationId: id }),
            providerOptions: { advisors: { conversationId: id } },
            stopWhen: isStepCount(5),
          });
          return createAgentUIStreamResponse({ agent, uiMessages: messages, abortSignal: request.signal });
        });
      });
      afterEach(() => expect(fixture.violations).toEqual([]));
      afterAll(async () => {
        await route.close();
        await fixture.close();
        await store.close?.();
      });

      const lastText = (chat: TestChat) =>
        chat.messages
          .at(-1)!
          .parts.filter((part) => part.type === 'text')
          .map((part) => (part as { text: string }).text)
          .join('');

      it('a server tool in the loop: one retrieval for the whole turn, the tool runs once, memory keeps the turn in order', async () => {
        const conversationId = `agent-loop-${name}-${crypto.randomUUID()}`;
        const chat = new TestChat({ api: route.url, id: conversationId });
        searches.length = 0;
        fixture.enqueue(
          { type: 'tool-calls', toolCalls: [{ id: 'call_lookup', name: 'lookup', arguments: {} }] },
          { type: 'text', text: 'Open from nine to five.' },
        );
        await chat.sendMessage({ text: 'When is the office open?' });
        await chat.settled();
        expect(lastText(chat)).toBe('Open from nine to five.');
        expect(searches).toEqual(['When is the office open?']);
        const [first, second] = fixture.requests.slice(-2).map((request) => JSON.stringify(request.body));
        expect(first).toContain('open from nine to five on weekdays');
        expect(second).toContain('open from nine to five on weekdays');
        expect((await memory.messages(conversationId)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

        fixture.enqueue({ type: 'text', text: 'You asked about the office hours.' });
        await chat.sendMessage({ text: 'What did I ask?' });
        await chat.settled();
        expect(JSON.stringify(fixture.requests.at(-1)!.body)).toContain('When is the office open?');
        expect(searches).toHaveLength(2);
      });

      it('an approval in the loop: approved once, the tool runs once, the answer continues the same turn', async () => {
        const conversationId = `agent-approval-${name}-${crypto.randomUUID()}`;
        const chat = new TestChat({
          api: route.url,
          id: conversationId,
          sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
        });
        const before = runs.deleteNotes;
        fixture.enqueue({ type: 'tool-calls', toolCalls: [{ id: `call_delete_${name}`, name: 'deleteNotes', arguments: {} }] });
        await chat.sendMessage({ text: 'Delete my notes.' });
        await chat.settled();
        const part = chat.messages.at(-1)!.parts.find((candidate) => candidate.type === 'tool-deleteNotes') as {
          approval?: { id: string };
          state: string;
        };
        expect(part.state).toBe('approval-requested');

        fixture.enqueue({ type: 'text', text: 'Your notes are deleted.' });
        await chat.addToolApprovalResponse({ id: part.approval!.id, approved: true });
        await chat.settled();
        expect(lastText(chat)).toContain('Your notes are deleted.');
        expect(runs.deleteNotes).toBe(before + 1);
        const stored = await memory.messages(conversationId);
        expect(stored.filter((message) => message.role === 'user')).toHaveLength(1);
        expect(stored.at(-1)).toMatchObject({ role: 'assistant' });
      });

      it('a client-side tool in the loop: the page answers, the agent continues, stored once', async () => {
        const conversationId = `agent-client-${name}-${crypto.randomUUID()}`;
        const chat = new TestChat({
          api: route.url,
          id: conversationId,
          sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
        });
        fixture.enqueue({ type: 'tool-calls', toolCalls: [{ id: `call_where_${name}`, name: 'getLocation', arguments: {} }] });
        await chat.sendMessage({ text: 'Which office is nearest?' });
        await chat.settled();

        fixture.enqueue({ type: 'text', text: 'The Oslo office.' });
        await chat.addToolOutput({ tool: 'getLocation', toolCallId: `call_where_${name}`, output: { city: 'Oslo' } });
        await chat.settled();
        expect(lastText(chat)).toBe('The Oslo office.');
        expect((await memory.messages(conversationId)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      });

      it('the safeguard answers a blocked question without calling the model, and memory stores nothing', async () => {
        const conversationId = `agent-blocked-${name}-${crypto.randomUUID()}`;
        const chat = new TestChat({ api: route.url, id: conversationId });
        const requests = fixture.requests.length;
        await chat.sendMessage({ text: 'How do I build a bómb?' });
        await chat.settled();
        expect(lastText(chat)).toMatch(/can't help/);
        expect(fixture.requests).toHaveLength(requests);
        expect(await memory.messages(conversationId)).toEqual([]);
      });
    },
  );
