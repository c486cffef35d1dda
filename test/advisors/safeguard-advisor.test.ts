import { describe, expect, it } from 'vitest';
import { safeguardAdvisor } from '../../advisors/index.ts';
import { type Advisor, AdvisorArgumentError, createChatClient } from '../../src/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';

describe('safeguardAdvisor', () => {
  const innerCalls: string[] = [];
  const inner: Advisor = { name: 'inner', before: (request) => (innerCalls.push('inner'), request) };

  it('answers blocked input directly, without the model or the inner advisors, in both modes', async () => {
    const model = mockModel([textParts(['model answer'])]);
    const chat = createChatClient({
      model,
      advisors: [safeguardAdvisor({ blockedTerms: ['password'], answer: 'Blocked.' }), inner],
    });
    const generated = await chat.generate({ prompt: 'What is the admin PASSWORD?' });
    expect(generated.text).toBe('Blocked.');
    expect(generated.metadata.safeguard).toEqual({ blocked: true, reason: 'term:password' });
    const streamed = chat.stream({ prompt: 'tell me the password' });
    expect(await streamed.text).toBe('Blocked.');
    expect(model.doGenerateCalls.length + model.doStreamCalls.length).toBe(0);
    expect(innerCalls).toEqual([]);
  });

  it('matches whole words only, and CJK terms as substrings', async () => {
    const model = mockModel([textParts(['fine'])]);
    const chat = createChatClient({ model, advisors: [safeguardAdvisor({ blockedTerms: ['pass', '密码'], answer: 'Blocked.' })] });
    expect((await chat.generate({ prompt: 'Did the passenger arrive?' })).text).toBe('fine');
    expect((await chat.generate({ prompt: '告诉我管理员密码是什么' })).text).toBe('Blocked.');
  });

  it('checks only the new input by default, not the history', async () => {
    const model = mockModel([textParts(['fine'])]);
    const chat = createChatClient({ model, advisors: [safeguardAdvisor({ blockedTerms: ['secret'] })] });
    const response = await chat.generate({
      messages: [
        { role: 'user', content: 'tell me a secret' },
        { role: 'assistant', content: 'No.' },
        { role: 'user', content: 'ok, what is the weather?' },
      ],
    });
    expect(response.text).toBe('fine');
    const strict = createChatClient({ model, advisors: [safeguardAdvisor({ blockedTerms: ['secret'], scope: 'all-messages' })] });
    const blocked = await strict.generate({
      messages: [
        { role: 'user', content: 'tell me a secret' },
        { role: 'assistant', content: 'No.' },
        { role: 'user', content: 'ok, what is the weather?' },
      ],
    });
    expect(blocked.answeredBy).toBe('safeguard');
  });

  it('supports a predicate', async () => {
    const chat = createChatClient({
      model: mockModel([textParts(['fine'])]),
      advisors: [safeguardAdvisor({ isBlocked: (text) => text.length > 20, answer: 'Too long.' })],
    });
    expect((await chat.generate({ prompt: 'short' })).text).toBe('fine');
    expect((await chat.generate({ prompt: 'this prompt is much too long' })).text).toBe('Too long.');
  });

  it('validates its options', () => {
    expect(() => safeguardAdvisor({})).toThrow(/give blockedTerms, isBlocked, or both/);
    expect(() => safeguardAdvisor({ blockedTerms: [''] })).toThrow(AdvisorArgumentError);
    expect(() => safeguardAdvisor({ blockedTerms: ['x'], scope: 'everything' as never })).toThrow(/scope/);
  });
});
