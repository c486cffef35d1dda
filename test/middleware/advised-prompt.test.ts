import { type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { type Advisor, advisorMiddleware } from '../../src/index.ts';
import { mockModel, promptText, textParts } from '../helpers/mock-models.ts';

/** The prompt the model received for one streamed turn through `advisors`. */
async function promptThrough(advisors: Advisor[]): Promise<string> {
  const model = mockModel([textParts(['ok'])]);
  const result = streamText({
    model: wrapLanguageModel({ model, middleware: advisorMiddleware({ advisors }) }),
    system: 'Be brief.',
    prompt: 'hi',
  });
  await result.consumeStream();
  return promptText(model.doStreamCalls[0]!);
}

const context = { role: 'user' as const, content: 'Context: Paris is in France.' };

describe('the prompt a middleware step sends', () => {
  it('is the call’s own when no advisor changed it', async () => {
    expect(await promptThrough([{ name: 'reading', before: (request) => ({ ...request }) }])).toBe('system: Be brief.\nuser: hi');
  });

  it('carries messages an advisor added, in a new array or (from JavaScript) pushed onto the one it received', async () => {
    const expected = 'system: Be brief.\nuser: hi\nuser: Context: Paris is in France.';
    expect(
      await promptThrough([{ name: 'copying', before: (request) => ({ ...request, messages: [...request.messages, context] }) }]),
    ).toBe(expected);
    expect(
      await promptThrough([{ name: 'pushing', before: (request) => ((request.messages as ModelMessage[]).push(context), request) }]),
    ).toBe(expected);
  });

  it('carries instructions an advisor changed', async () => {
    expect(await promptThrough([{ name: 'instructing', before: (request) => ({ ...request, instructions: 'Answer in French.' }) }])).toBe(
      'system: Answer in French.\nuser: hi',
    );
  });
});
