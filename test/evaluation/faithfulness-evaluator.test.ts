import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, RetryError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFaithfulnessEvaluator } from '../../src/evaluation/index.ts';
import { AdvisorArgumentError, ComponentError } from '../../src/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';
import { promptText, usage } from '../helpers/mock-models.ts';

function judge(verdict: unknown) {
  const text = JSON.stringify(verdict);
  return new MockLanguageModelV4({
    doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
  });
}

const input = {
  question: 'When did Helena Marsh retire?',
  answer: 'She retired in 2019. She now lives in Paris.',
  context: ['She retired from the Survey Office in 2019, after thirty-eight years of service.', 'She lives in Stromness.'],
};
const verdict = {
  claims: [
    { claim: 'She retired in 2019.', supported: true, evidence: 'She retired from the Survey Office in 2019.' },
    { claim: 'She lives in Paris.', supported: false, evidence: '' },
  ],
  reason: 'One of two claims is supported.',
};

describe('createFaithfulnessEvaluator', () => {
  it('scores the share of claims the judge found supported, and returns every claim with its evidence', async () => {
    const faithfulness = createFaithfulnessEvaluator({ model: judge(verdict) });
    expect(faithfulness.name).toBe('faithfulness');
    await expect(faithfulness.evaluate(input)).resolves.toEqual({
      score: 0.5,
      passed: true,
      threshold: 0.5,
      reason: 'One of two claims is supported.',
      claims: verdict.claims,
      usage: { inputTokens: 3, outputTokens: 5 },
    });
    await expect(createFaithfulnessEvaluator({ model: judge(verdict), threshold: 1 }).evaluate(input)).resolves.toMatchObject({
      passed: false,
    });
  });

  it('scores 1 for an answer without claims (a refusal asserts nothing unsupported)', async () => {
    const faithfulness = createFaithfulnessEvaluator({ model: judge({ claims: [], reason: 'The answer declines.' }) });
    await expect(faithfulness.evaluate({ ...input, answer: 'The documents do not say.' })).resolves.toMatchObject({
      score: 1,
      passed: true,
      claims: [],
    });
  });

  it('gives the judge the context as a <documents> block, and requires {answer} and {context} in a template', async () => {
    const model = judge(verdict);
    await createFaithfulnessEvaluator({ model }).evaluate(input);
    const prompt = promptText(model.doGenerateCalls[0]);
    expect(prompt).toContain('<document index="1" id="1">\nShe retired from the Survey Office in 2019');
    expect(prompt).toContain('<document index="2" id="2">\nShe lives in Stromness.\n</document>');
    expect(model.doGenerateCalls[0].responseFormat).toMatchObject({ type: 'json', name: 'faithfulness' });

    expect(() => createFaithfulnessEvaluator({ model, template: 'Check {answer}.' })).toThrow(
      new AdvisorArgumentError({
        component: 'faithfulness',
        argument: 'template',
        message: 'the template must contain the placeholder {context}',
      }),
    );
  });

  it('rejects with a ComponentError when a claim lacks its verdict', async () => {
    const broken = judge({ claims: [{ claim: 'She retired in 2019.' }], reason: 'x' });
    await expect(createFaithfulnessEvaluator({ model: broken }).evaluate(input)).rejects.toThrow(
      'faithfulness: judge failed: No object generated: response did not match schema. claims[0]: expected { claim: string, supported: boolean, evidence: string }',
    );
  });
});

describe('createFaithfulnessEvaluator through the real @ai-sdk/openai provider', () => {
  let fixture: OpenAIFixture;
  beforeAll(async () => {
    fixture = await startOpenAIFixture();
  });
  afterEach(() => expect(fixture.violations).toEqual([]));
  afterAll(() => fixture.close());

  const openai = () => createOpenAI({ baseURL: fixture.baseURL, apiKey: fixture.apiKey });

  it('sends a strict json_schema response format that the API accepts, and reads the verdict', async () => {
    fixture.enqueue({ type: 'text', text: JSON.stringify(verdict) });
    const result = await createFaithfulnessEvaluator({ model: openai().chat('gpt-4o-mini') }).evaluate(input);
    expect(result).toMatchObject({ score: 0.5, claims: verdict.claims });
    const body = fixture.requests.at(-1)!.body;
    expect(body.temperature).toBe(0);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'faithfulness', strict: true } });
  });

  it('rejects with a ComponentError wrapping the RetryError of a 500 then a 503, after the one retry it was given', async () => {
    const before = fixture.requests.length;
    const retryAfter = { 'retry-after-ms': '5' };
    fixture.enqueue(
      { type: 'error', status: 500, message: 'The server had an error', headers: retryAfter },
      { type: 'error', status: 503, message: 'Overloaded', headers: retryAfter },
    );
    const error = await createFaithfulnessEvaluator({ model: openai().chat('gpt-4o-mini'), maxRetries: 1 })
      .evaluate(input)
      .catch((caught: unknown) => caught);
    expect(ComponentError.isInstance(error)).toBe(true);
    expect(fixture.requests.length - before).toBe(2);
    const cause = (error as ComponentError).cause;
    expect(RetryError.isInstance(cause) && APICallError.isInstance(cause.lastError) && cause.lastError.statusCode).toBe(503);
  });
});
