import { safeValidateUIMessages, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { toUIMessages, type MemoryEntry } from '../../src/memory/index.ts';

function entries(turnId: string, messages: readonly ModelMessage[], extra: Record<string, unknown> = {}): MemoryEntry[] {
  return messages.map((message) => ({ message, metadata: { turnId, createdAt: new Date(0), ...extra } }));
}

describe('toUIMessages', () => {
  it('shows each turn as useChat streamed it: the user message, then one assistant message with its tool parts', () => {
    const stored = [
      ...entries('t1', [{ role: 'system', content: 'Be brief.' }]),
      ...entries('t1', [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'json', value: { celsius: 4 } } }],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'It is **4 °C**.' }] },
      ]),
      ...entries('t2', [{ role: 'user', content: [{ type: 'text', text: 'Delete my notes' }] }]),
      ...entries('t2', [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'deleteNotes', input: {} }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'deleteNotes', output: { type: 'execution-denied', reason: 'no' } }],
        },
        { role: 'assistant', content: 'I did not delete them.' },
      ]),
    ];
    const messages = toUIMessages(stored);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[0]).toEqual({ id: 't1', role: 'user', parts: [{ type: 'text', text: 'Weather in Oslo?' }] });
    expect(messages[1].parts).toEqual([
      {
        type: 'dynamic-tool',
        toolName: 'weather',
        toolCallId: 'c1',
        state: 'output-available',
        input: { city: 'Oslo' },
        output: { celsius: 4 },
      },
      { type: 'text', text: 'It is **4 °C**.', state: 'done' },
    ]);
    expect(messages[3].parts[0]).toMatchObject({ type: 'dynamic-tool', toolName: 'deleteNotes', state: 'output-denied' });
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);
    expect(toUIMessages(stored)).toEqual(messages);
  });

  it('leaves an open call waiting and marks an interrupted answer', () => {
    const messages = toUIMessages([
      ...entries('t1', [{ role: 'user', content: 'Where am I?' }]),
      ...entries('t1', [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'location', input: {} }] }]),
      ...entries('t2', [{ role: 'user', content: 'Tell me a story' }]),
      ...entries('t2', [{ role: 'assistant', content: 'Once upon a' }], { interrupted: true }),
    ]);
    expect(messages[1].parts[0]).toMatchObject({ type: 'dynamic-tool', state: 'input-available' });
    expect(messages[1].metadata).toBeUndefined();
    expect(messages[3]).toMatchObject({
      role: 'assistant',
      metadata: { interrupted: true },
      parts: [{ type: 'text', text: 'Once upon a' }],
    });
  });

  it('marks a failed turn on its answer, or on its question when the model answered nothing', () => {
    const messages = toUIMessages([
      ...entries('t1', [{ role: 'user', content: 'Tell me a story' }], { failed: true }),
      ...entries('t1', [{ role: 'assistant', content: 'Once upon a' }], { failed: true }),
      ...entries('t2', [{ role: 'user', content: 'Are you there?' }], { failed: true }),
    ]);
    expect(messages.map((message) => [message.role, message.metadata])).toEqual([
      ['user', undefined],
      ['assistant', { failed: true }],
      ['user', { failed: true }],
    ]);
  });

  it('gives messages useChat can send back: approved, denied, answered and open calls pass the AI SDK validation', async () => {
    const approval = (turnId: string, callId: string, approved: boolean): MemoryEntry[] =>
      entries(turnId, [
        { role: 'user', content: 'Delete my notes' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: callId, toolName: 'deleteNotes', input: { folder: 'drafts' } },
            { type: 'tool-approval-request', approvalId: `approval-${callId}`, toolCallId: callId },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-approval-response', approvalId: `approval-${callId}`, approved },
            {
              type: 'tool-result',
              toolCallId: callId,
              toolName: 'deleteNotes',
              output: approved ? { type: 'json', value: { deleted: 3 } } : { type: 'execution-denied', reason: 'not now' },
            },
          ],
        },
      ]);
    const messages = toUIMessages([
      ...approval('t1', 'c1', true),
      ...approval('t2', 'c2', false),
      ...entries('t3', [
        { role: 'user', content: 'Where am I?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c3', toolName: 'getLocation', input: {} }] },
      ]),
    ]);
    expect(messages[1].parts[0]).toMatchObject({ state: 'output-available', approval: { id: 'approval-c1', approved: true } });
    expect(messages[3].parts[0]).toMatchObject({
      state: 'output-denied',
      approval: { id: 'approval-c2', approved: false, reason: 'not now' },
    });
    const validation = await safeValidateUIMessages({ messages });
    expect(validation.success, validation.success ? '' : String(validation.error)).toBe(true);
  });
});
