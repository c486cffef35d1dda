import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { openToolCalls, removeOrphanToolParts } from '../../src/memory/tool-pairing.ts';

describe('removeOrphanToolParts', () => {
  it('drops a tool call cut off before its result, keeping the rest of the partial turn', () => {
    const partial: ModelMessage[] = [
      { role: 'user', content: 'Weather in Paris and Lyon?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'weather', input: { city: 'Paris' } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: { city: 'Lyon' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'weather', output: { type: 'text', value: 'sunny' } }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'weather', input: { city: 'Nice' } }] },
    ];
    expect(removeOrphanToolParts(partial)).toEqual([
      partial[0],
      { role: 'assistant', content: [{ type: 'text', text: 'Checking both.' }, (partial[1].content as unknown[])[1]] },
      partial[2],
    ]);
  });

  it('drops a tool result whose call is missing, and its approval parts', () => {
    const messages: ModelMessage[] = [
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'x', toolName: 't', output: { type: 'text', value: 'v' } }] },
      { role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'y' }] },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap', approved: true }] },
      { role: 'assistant', content: 'done' },
    ];
    expect(removeOrphanToolParts(messages)).toEqual([{ role: 'assistant', content: 'done' }]);
  });

  it('returns a complete history unchanged', () => {
    const messages: ModelMessage[] = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 't', input: {}, providerExecuted: true },
          { type: 'tool-result', toolCallId: 'a', toolName: 't', output: { type: 'json', value: 1 } },
        ],
      },
    ];
    expect(removeOrphanToolParts(messages)).toEqual(messages);
  });
});

const call = (toolCallId: string, toolName = 'weather') => ({ type: 'tool-call' as const, toolCallId, toolName, input: {} });
const result = (toolCallId: string, value = 'sunny', toolName = 'weather') => ({
  type: 'tool-result' as const,
  toolCallId,
  toolName,
  output: { type: 'text' as const, value },
});
const approvalRequest = (approvalId: string, toolCallId: string) => ({ type: 'tool-approval-request' as const, approvalId, toolCallId });
const approvalResponse = (approvalId: string, approved: boolean) => ({ type: 'tool-approval-response' as const, approvalId, approved });

describe('removeOrphanToolParts heals histories that providers reject', () => {
  it('keeps one copy of a question and tool call stored twice by an older version (client tool answered on the next request)', () => {
    const poisoned: ModelMessage[] = [
      { role: 'user', content: 'Where am I?' },
      { role: 'assistant', content: [call('c1', 'getLocation')] },
      { role: 'user', content: 'Where am I?' },
      { role: 'assistant', content: [call('c1', 'getLocation')] },
      { role: 'tool', content: [result('c1', 'Paris', 'getLocation')] },
      { role: 'assistant', content: 'You are in Paris.' },
    ];
    const healed = removeOrphanToolParts(poisoned);
    expect(healed).toEqual([poisoned[0], poisoned[2], poisoned[3], poisoned[4], poisoned[5]]);
  });

  it('drops a repeated result and a result that does not follow its call', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [call('c1')] },
      { role: 'tool', content: [result('c1', 'sunny'), result('c1', 'rain')] },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'tool', content: [result('c1', 'late')] },
      { role: 'user', content: 'Thanks' },
    ];
    expect(removeOrphanToolParts(messages)).toEqual([
      messages[0],
      messages[1],
      { role: 'tool', content: [result('c1', 'sunny')] },
      messages[3],
      messages[5],
    ]);
  });

  it('drops a second call with an id already answered earlier, and its result', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [call('c1')] },
      { role: 'tool', content: [result('c1', 'first')] },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: [call('c1')] },
      { role: 'tool', content: [result('c1', 'second')] },
      { role: 'assistant', content: 'done' },
    ];
    expect(removeOrphanToolParts(messages)).toEqual([messages[0], messages[1], messages[2], messages[3], messages[6]]);
  });

  it('keeps the open calls at the end only when asked, and lists them', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Delete the draft and tell me where I am' },
      {
        role: 'assistant',
        content: [call('server', 'search'), call('client', 'getLocation'), call('risky', 'deleteFile'), approvalRequest('ap1', 'risky')],
      },
      { role: 'tool', content: [result('server', 'found', 'search')] },
    ];
    expect(removeOrphanToolParts(messages)).toEqual([messages[0], { role: 'assistant', content: [call('server', 'search')] }, messages[2]]);
    expect(removeOrphanToolParts(messages, { keepOpenToolCalls: true })).toEqual(messages);
    expect(openToolCalls(messages)).toEqual([
      { toolCallId: 'client', toolName: 'getLocation' },
      { toolCallId: 'risky', toolName: 'deleteFile', approvalId: 'ap1' },
    ]);
  });

  it('a call is no longer open once a user message follows it', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Where am I?' },
      { role: 'assistant', content: [call('c1', 'getLocation')] },
      { role: 'user', content: 'Never mind. Hello!' },
    ];
    expect(openToolCalls(messages)).toEqual([]);
    expect(removeOrphanToolParts(messages, { keepOpenToolCalls: true })).toEqual([messages[0], messages[2]]);
  });

  it('keeps an answered approval at the end, which streamText resolves, and the whole approved turn once it has its result', () => {
    const pending: ModelMessage[] = [
      { role: 'user', content: 'Delete draft.txt' },
      { role: 'assistant', content: [call('c1', 'deleteFile'), approvalRequest('ap1', 'c1')] },
      { role: 'tool', content: [approvalResponse('ap1', false)] },
    ];
    expect(removeOrphanToolParts(pending)).toEqual(pending);
    const completed: ModelMessage[] = [
      ...pending,
      { role: 'tool', content: [result('c1', 'denied', 'deleteFile')] },
      { role: 'assistant', content: 'I did not delete it.' },
      { role: 'user', content: 'ok' },
    ];
    expect(removeOrphanToolParts(completed)).toEqual(completed);
    const abandoned: ModelMessage[] = [...pending, { role: 'user', content: 'something else' }];
    expect(removeOrphanToolParts(abandoned)).toEqual([pending[0], abandoned[3]]);
  });
});
