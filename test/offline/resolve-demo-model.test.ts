import { createOpenAI } from '@ai-sdk/openai';
import { embed, generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { OFFLINE_MODEL_LABEL, resolveDemoModel } from '../../src/offline/index.ts';
import { startOpenAIFixture, type OpenAIFixture } from '../fixtures/openai-fixture-server.ts';

describe('resolveDemoModel', () => {
  let fixture: OpenAIFixture;
  beforeAll(async () => {
    fixture = await startOpenAIFixture({ apiKey: 'sk-demo-secret' });
  });
  afterAll(() => fixture.close());

  it('falls back to the offline model, without an embedding model, when no OpenAI variable is set', async () => {
    const demo = resolveDemoModel({ env: { OPENAI_API_KEY: '  ', PATH: '/bin' } });
    expect(demo.embeddingModel).toBeUndefined();
    expect(demo.label).toMatch(/offline stand-in model/);
    const { text } = await generateText({ model: demo.model, prompt: 'Anything?' });
    expect(text.startsWith(OFFLINE_MODEL_LABEL)).toBe(true);
  });

  it('uses OpenAI chat completions and embeddings at OPENAI_BASE_URL with OPENAI_API_KEY and OPENAI_MODEL', async () => {
    const demo = resolveDemoModel({
      env: { OPENAI_API_KEY: fixture.apiKey, OPENAI_BASE_URL: fixture.baseURL, OPENAI_MODEL: 'gpt-4.1-mini' },
      createOpenAI,
    });
    fixture.enqueue({ type: 'text', text: 'Hello from OpenAI.' });
    const { text } = await generateText({ model: demo.model, prompt: 'Hi', maxRetries: 0 });
    expect(text).toBe('Hello from OpenAI.');
    expect(fixture.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: 'gpt-4.1-mini' } });

    const { embedding } = await embed({ model: demo.embeddingModel!, value: 'refunds', maxRetries: 0 });
    expect(embedding).toHaveLength(16);
    expect(fixture.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-3-small' } });
    expect(demo.label).toBe(`gpt-4.1-mini at ${fixture.baseURL}`);
    expect(demo.label).not.toContain(fixture.apiKey);
    expect(fixture.violations).toEqual([]);
  });

  it('labels plain OpenAI by model and defaults to gpt-4o-mini', () => {
    const demo = resolveDemoModel({ env: { OPENAI_API_KEY: 'sk-test' }, createOpenAI });
    expect(demo.label).toBe('OpenAI gpt-4o-mini');
    expect(demo.model.modelId).toBe('gpt-4o-mini');
    expect(demo.embeddingModel?.modelId).toBe('text-embedding-3-small');
  });

  it('answers an OpenAI-compatible server at OPENAI_BASE_URL without a key', async () => {
    // Local servers ignore the key; the placeholder the provider then sends stands in for one.
    const open = await startOpenAIFixture({ apiKey: 'no-key' });
    try {
      const demo = resolveDemoModel({ env: { OPENAI_BASE_URL: open.baseURL, OPENAI_MODEL: 'llama3.2' }, createOpenAI });
      open.enqueue({ type: 'text', text: 'Hello from a local server.' });
      expect((await generateText({ model: demo.model, prompt: 'Hi', maxRetries: 0 })).text).toBe('Hello from a local server.');
      expect(open.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: 'llama3.2' } });
    } finally {
      await open.close();
    }
  });

  it('says to pass createOpenAI when a key is set without it, instead of failing later', () => {
    expect(() => resolveDemoModel({ env: { OPENAI_API_KEY: 'sk-test' } })).toThrow(/pass createOpenAI from @ai-sdk\/openai/);
    expect(() => resolveDemoModel({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' } })).toThrow(/OPENAI_BASE_URL is set/);
  });

  it('rejects an env that is not an object', () => {
    expect(() => resolveDemoModel({ env: 'OPENAI_API_KEY=x' as never })).toThrow(AdvisorArgumentError);
  });
});
