import { describe, expect, it } from 'vitest';
import { createGptTokenizer, createGptTokenizerForModel } from '../../src/memory/index.ts';

describe('gpt tokenizers', () => {
  it('picks the encoding of the model family', () => {
    expect(createGptTokenizerForModel('gpt-4o').name).toBe('gpt-tokenizer:o200k_base');
    expect(createGptTokenizerForModel('openai/gpt-4').name).toBe('gpt-tokenizer:cl100k_base');
    expect(createGptTokenizerForModel('gpt-3.5-turbo').name).toBe('gpt-tokenizer:cl100k_base');
    expect(createGptTokenizerForModel('claude-sonnet-4').name).toBe('gpt-tokenizer:o200k_base');
  });

  it('counts differently per encoding, after loading lazily', async () => {
    const cl100k = createGptTokenizer({ encoding: 'cl100k_base' });
    expect(() => cl100k.countTokens('x')).toThrow(/load/);
    const o200k = createGptTokenizer();
    await Promise.all([cl100k.load!(), o200k.load!()]);
    const text = 'नमस्ते दुनिया, यह एक परीक्षण वाक्य है।';
    expect(cl100k.countTokens(text)).not.toBe(o200k.countTokens(text));
    expect(() => createGptTokenizer({ encoding: 'nope' as never })).toThrow(/encoding/);
  });
});
