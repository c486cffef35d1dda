import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createAnswerRelevancyEvaluator, createFaithfulnessEvaluator } from '../../src/evaluation/index.ts';
import { AdvisorArgumentError } from '../../src/index.ts';
import { createOfflineJudgeModel } from '../../src/offline/index.ts';

const context = [
  'Helena Marsh (born 12 April 1957 in Whitby, England) is a retired British marine cartographer.',
  'In 1994 she published The Tidal Atlas of the Dogger Bank. She retired from the Survey Office in 2019.',
];

describe('createOfflineJudgeModel: a deterministic lexical stand-in judge', () => {
  const relevancy = createAnswerRelevancyEvaluator({ model: createOfflineJudgeModel() });
  const faithfulness = createFaithfulnessEvaluator({ model: createOfflineJudgeModel() });
  const question = 'When did Helena Marsh publish her tidal atlas?';

  it("relevancy: the share of the question's content words the answer uses, naming the missing ones", async () => {
    const full = await relevancy.evaluate({ question, answer: 'Helena Marsh published her tidal atlas in 1994.', context });
    expect(full).toEqual({
      score: 1,
      passed: true,
      threshold: 0.5,
      reason: "Lexical proxy: the answer uses 5 of the question's 5 content words.",
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
    const partial = await relevancy.evaluate({ question, answer: 'Marsh was born in Whitby.', context });
    expect(partial.score).toBe(0.2);
    expect(partial.passed).toBe(false);
    expect(partial.reason).toContain('missing: helena, publish, tidal, atla');
  });

  it('relevancy: a refusal scores 0, even when it repeats the question', async () => {
    const refusal = await relevancy.evaluate({
      question,
      answer: `[offline stand-in model] I have nothing to quote about "${question}": the provided documents do not mention it.`,
      context,
    });
    expect(refusal).toMatchObject({ score: 0, reason: 'The answer declines to answer or says nothing.' });
    await expect(relevancy.evaluate({ question, answer: 'The documents do not contain the answer.', context })).resolves.toMatchObject({
      score: 0,
    });
  });

  it("faithfulness: each sentence is a claim, supported when one document holds 75% of its words, citing that document's sentence", async () => {
    const result = await faithfulness.evaluate({
      question,
      answer: 'She published The Tidal Atlas of the Dogger Bank in 1994 [2]. She won the Nobel Prize for chemistry in 2001.',
      context,
    });
    expect(result).toEqual({
      score: 0.5,
      passed: true,
      threshold: 0.5,
      reason: 'Lexical proxy: 1 of 2 claims have at least 75% of their content words in one document.',
      claims: [
        {
          claim: 'She published The Tidal Atlas of the Dogger Bank in 1994.',
          supported: true,
          evidence: 'In 1994 she published The Tidal Atlas of the Dogger Bank.',
        },
        { claim: 'She won the Nobel Prize for chemistry in 2001.', supported: false, evidence: '' },
      ],
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
  });

  it("faithfulness: the offline model's own quotes are claims, its label and refusals are not", async () => {
    const quoted = await faithfulness.evaluate({
      question,
      answer: '[offline stand-in model] From the provided documents: In 1994 she published The Tidal Atlas of the Dogger Bank. [2]',
      context,
    });
    expect(quoted).toMatchObject({
      score: 1,
      claims: [{ claim: 'In 1994 she published The Tidal Atlas of the Dogger Bank.', supported: true }],
    });
    const refusal = await faithfulness.evaluate({
      question,
      answer: '[offline stand-in model] I have nothing to quote about it.',
      context,
    });
    expect(refusal).toMatchObject({ score: 1, claims: [], reason: 'The answer makes no claims.' });
  });

  it('gives the same verdict every time, and reads custom templates through their elements', async () => {
    const input = { question, answer: 'Marsh published an atlas of the Dogger Bank. She sailed to Iceland.', context };
    const runs = await Promise.all([1, 2, 3].map(() => faithfulness.evaluate(input)));
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    const custom = createFaithfulnessEvaluator({
      model: createOfflineJudgeModel(),
      template: 'Check this.\n{answer}\nAgainst:\n{context}',
    });
    const { usage, ...verdict } = runs[0];
    await expect(custom.evaluate(input)).resolves.toEqual({ ...verdict, usage: { ...usage, inputTokens: expect.any(Number) } });
  });

  it('refuses prompts that are not an evaluator’s, and invalid options', async () => {
    await expect(generateText({ model: createOfflineJudgeModel(), prompt: 'Hello?' })).rejects.toThrow(
      /the offline judge answers the prompts of the answer evaluators only/,
    );
    expect(() => createOfflineJudgeModel({ supportThreshold: 0 })).toThrow(AdvisorArgumentError);
    expect(() => createOfflineJudgeModel({ temperature: 0 } as never)).toThrow(/unknown option "temperature"/);
  });
});
