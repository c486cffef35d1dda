import { jsonSchema, tool, type ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageMemoryAdvisor } from '../../../advisors/index.ts';
import { AdvisorContext, createChatMemory, type AdvisedRequest } from '../../../src/index.ts';
import { newInput } from '../../../src/client/normalize-messages.ts';
import { removeOrphanToolParts } from '../../../src/memory/index.ts';

const schema = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const tools = {
  getLocation: tool({ inputSchema: schema }),
  search: tool({ inputSchema: schema, execute: async () => 'found' }),
  deleteFile: tool({ inputSchema: schema, needsApproval: true, execute: async () => 'deleted' }),
};

type TurnKind = 'text' | 'server-tool' | 'interrupted-call';
type LastTurnKind = TurnKind | 'open-client-call' | 'open-client-calls' | 'open-approval';
type RequestKind = 'new-question' | 'answer' | 'use-chat-history' | 'new-question-instead-of-answer';

const call = (toolCallId: string, toolName: string) => ({ type: 'tool-call' as const, toolCallId, toolName, input: {} });
const result = (toolCallId: string, toolName: string) => ({
  type: 'tool-result' as const,
  toolCallId,
  toolName,
  output: { type: 'text' as const, value: 'ok' },
});

function turnMessages(kind: LastTurnKind, index: number): ModelMessage[] {
  const question: ModelMessage = { role: 'user', content: `question ${index}` };
  switch (kind) {
    case 'text':
      return [question, { role: 'assistant', content: `answer ${index}` }];
    case 'server-tool':
      return [
        question,
        { role: 'assistant', content: [call(`s${index}`, 'search')] },
        { role: 'tool', content: [result(`s${index}`, 'search')] },
        { role: 'assistant', content: `found ${index}` },
      ];
    case 'interrupted-call':
      return [question, { role: 'assistant', content: [call(`x${index}`, 'search')] }];
    case 'open-client-call':
      return [question, { role: 'assistant', content: [call(`loc${index}`, 'getLocation')] }];
    case 'open-client-calls':
      return [question, { role: 'assistant', content: [call(`loc${index}`, 'getLocation'), call(`loc${index}b`, 'getLocation')] }];
    case 'open-approval':
      return [
        question,
        {
          role: 'assistant',
          content: [
            call(`del${index}`, 'deleteFile'),
            { type: 'tool-approval-request', approvalId: `ap${index}`, toolCallId: `del${index}` },
          ],
        },
      ];
  }
}

function clientMessages(kind: RequestKind, stored: readonly ModelMessage[], last: LastTurnKind, lastIndex: number): ModelMessage[] {
  const question: ModelMessage = { role: 'user', content: 'a new question' };
  if (kind === 'new-question' || kind === 'new-question-instead-of-answer') return [question];
  if (kind === 'use-chat-history') return [...stored, question];
  // Of two open calls, the client answers one.
  if (last === 'open-client-call' || last === 'open-client-calls')
    return [{ role: 'tool', content: [result(`loc${lastIndex}`, 'getLocation')] }];
  return [{ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: `ap${lastIndex}`, approved: true }] }];
}

describe('messageMemoryAdvisor: the messages it sends', () => {
  it('property: pair every tool call with its result, whatever was stored and whatever the client sends', async () => {
    const turnKind = fc.constantFrom<TurnKind>('text', 'server-tool', 'interrupted-call');
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnKind, { maxLength: 8 }),
        fc.constantFrom<LastTurnKind>('text', 'server-tool', 'interrupted-call', 'open-client-call', 'open-client-calls', 'open-approval'),
        fc.constantFrom<RequestKind>('new-question', 'answer', 'use-chat-history', 'new-question-instead-of-answer'),
        async (earlier, last, requestKind) => {
          const memory = createChatMemory();
          const turns = [...earlier, last];
          const stored: ModelMessage[] = [];
          for (const [index, kind] of turns.entries()) {
            const messages = turnMessages(kind, index);
            await memory.appendTurn('c', messages, { key: `t${index}`, metadata: { turnId: `t${index}` } });
            stored.push(...messages);
          }
          const open = last.startsWith('open-');
          const kind = requestKind === 'answer' && !open ? 'new-question' : requestKind;
          const messages = clientMessages(kind, stored, last, turns.length - 1);
          const request: AdvisedRequest = {
            model: 'unused',
            input: newInput(messages),
            messages,
            tools,
            settings: {},
            sources: [],
            context: new AdvisorContext({ conversationId: 'c' }),
          };

          const sent = (await messageMemoryAdvisor({ memory }).before!(request)).messages;

          expect(removeOrphanToolParts(sent)).toEqual(sent);
          expect(sent.at(-1)?.role).toBe(kind === 'answer' ? 'tool' : 'user');
        },
      ),
      { numRuns: 150 },
    );
  });
});
