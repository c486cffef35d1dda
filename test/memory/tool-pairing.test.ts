import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { removeOrphanToolParts } from '../../src/memory/index.ts';

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
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {}, providerExecuted: true }, { type: 'tool-result', toolCallId: 'a', toolName: 't', output: { type: 'json', value: 1 } }] },
    ];
    expect(removeOrphanToolParts(messages)).toEqual(messages);
  });
});
