import { describe, expect, it } from 'vitest';
import {
  createCompressionQueryTransformer,
  createHydeQueryTransformer,
  createMultiQueryExpander,
  createRewriteQueryTransformer,
  createTranslationQueryTransformer,
  parseQueryList,
} from '../../../advisors/rag/index.ts';
import { AdvisorArgumentError, AdvisorTimeoutError, ComponentError } from '../../../src/index.ts';
import { answeringModel, hangingModel, stageInput } from './rag-test-helpers.ts';

describe('compression query transformer', () => {
  const history = [
    { role: 'user' as const, content: 'Tell me about the Eiffel Tower.' },
    { role: 'assistant' as const, content: 'It is a wrought-iron tower in Paris.' },
  ];

  it('turns a follow-up into a standalone query using the conversation', async () => {
    let seen = '';
    const model = answeringModel((prompt) => {
      seen = prompt;
      return 'How tall is the Eiffel Tower?';
    });
    const queries = await createCompressionQueryTransformer({ model }).transform('and how tall is it?', stageInput({ history }));
    expect(queries).toEqual(['How tall is the Eiffel Tower?']);
    expect(seen).toContain('Eiffel Tower');
    expect(seen).toContain('and how tall is it?');
  });

  it('does not call the model without history', async () => {
    const model = answeringModel(() => 'unused');
    const queries = await createCompressionQueryTransformer({ model }).transform('What is BM25?', stageInput());
    expect(queries).toEqual(['What is BM25?']);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('strips labels and quotes, and keeps the query when the model answers nothing', async () => {
    const labelled = createCompressionQueryTransformer({
      model: answeringModel(() => 'Standalone query: "Height of the Eiffel Tower"\n\nI resolved "it".'),
    });
    expect(await labelled.transform('how tall is it?', stageInput({ history }))).toEqual(['Height of the Eiffel Tower']);
    const empty = createCompressionQueryTransformer({ model: answeringModel(() => '  \n ') });
    expect(await empty.transform('how tall is it?', stageInput({ history }))).toEqual(['how tall is it?']);
  });
});

describe('rewrite and translation query transformers', () => {
  it('rewrites for the named search system, falling back to the query on an empty answer', async () => {
    let seen = '';
    const rewrite = createRewriteQueryTransformer({
      model: answeringModel((prompt) => ((seen = prompt), '```\nrefund policy digital purchases\n```')),
      targetSearchSystem: 'a keyword index',
    });
    expect(await rewrite.transform('hey so I bought an ebook, can I get my money back??', stageInput())).toEqual([
      'refund policy digital purchases',
    ]);
    expect(seen).toContain('a keyword index');
    const empty = createRewriteQueryTransformer({ model: answeringModel(() => '""') });
    expect(await empty.transform('original', stageInput())).toEqual(['original']);
  });

  it("translates into the documents' language", async () => {
    let seen = '';
    const translate = createTranslationQueryTransformer({
      model: answeringModel((prompt) => ((seen = prompt), 'Translation: What is the capital of France?')),
      targetLanguage: 'English',
    });
    expect(await translate.transform('Quelle est la capitale de la France ?', stageInput())).toEqual(['What is the capital of France?']);
    expect(seen).toContain('English');
    expect(() => createTranslationQueryTransformer({ model: answeringModel(() => ''), targetLanguage: ' ' })).toThrow(/targetLanguage/);
  });
});

describe('multi-query expander', () => {
  const expand = (answer: string, options: { n?: number; includeOriginal?: boolean } = {}) =>
    createMultiQueryExpander({ model: answeringModel(() => answer), ...options }).transform('effects of caffeine on sleep', stageInput());

  it('returns the original followed by n expansions', async () => {
    expect(await expand('caffeine and sleep quality\ncoffee insomnia\nadenosine blocking and sleep latency', { n: 3 })).toEqual([
      'effects of caffeine on sleep',
      'caffeine and sleep quality',
      'coffee insomnia',
      'adenosine blocking and sleep latency',
    ]);
  });

  it('reads numbered, bulleted and JSON lists, skips intros, duplicates and the original, and keeps at most n', async () => {
    const numbered =
      'Here are some alternative queries:\n\n1. caffeine and sleep quality\n2) "coffee insomnia"\n3. Caffeine and sleep quality\n4. Effects of caffeine on sleep.\n5. extra one';
    expect(await expand(numbered, { n: 3 })).toEqual([
      'effects of caffeine on sleep',
      'caffeine and sleep quality',
      'coffee insomnia',
      'extra one',
    ]);
    expect(await expand('```json\n{"queries": ["a", "b"]}\n```', { includeOriginal: false })).toEqual(['a', 'b']);
    expect(await expand('- one\n* two\n• three', { n: 2, includeOriginal: false })).toEqual(['one', 'two']);
  });

  it('falls back to the original query when the answer holds no usable query', async () => {
    expect(await expand('', { includeOriginal: false })).toEqual(['effects of caffeine on sleep']);
    expect(await expand('Sure! Here are the queries:', {})).toEqual(['effects of caffeine on sleep']);
    expect(parseQueryList('[1, 2]')).toEqual(['[1, 2]']);
  });

  it('validates n', () => {
    expect(() => createMultiQueryExpander({ model: answeringModel(() => ''), n: 0 })).toThrow(AdvisorArgumentError);
  });
});

describe('HyDE query transformer', () => {
  it('searches with a hypothetical passage, and the original query unless told otherwise', async () => {
    const passage = 'Caffeine blocks adenosine receptors, delaying sleep onset.';
    expect(
      await createHydeQueryTransformer({ model: answeringModel(() => passage) }).transform('why does coffee keep me awake', stageInput()),
    ).toEqual(['why does coffee keep me awake', passage]);
    expect(
      await createHydeQueryTransformer({ model: answeringModel(() => passage), includeOriginal: false }).transform('q', stageInput()),
    ).toEqual([passage]);
    expect(
      await createHydeQueryTransformer({ model: answeringModel(() => ' '), includeOriginal: false }).transform('q', stageInput()),
    ).toEqual(['q']);
  });
});

describe('model calls of the transformers', () => {
  it('time out with a AdvisorTimeoutError naming the transformer', async () => {
    const rewrite = createRewriteQueryTransformer({ model: hangingModel(), timeoutMs: 20 });
    const error = await rewrite.transform('q', stageInput()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdvisorTimeoutError);
    expect((error as AdvisorTimeoutError).component).toBe('rewrite-query-transformer');
  });

  it('honour the request abort signal', async () => {
    const controller = new AbortController();
    const pending = createMultiQueryExpander({ model: hangingModel() }).transform('q', stageInput({ abortSignal: controller.signal }));
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
  });

  it('report a failing model as a ComponentError', async () => {
    const hyde = createHydeQueryTransformer({ model: answeringModel(() => Promise.reject(new Error('rate limited'))) });
    await expect(hyde.transform('q', stageInput())).rejects.toThrow(ComponentError);
  });

  it('validate their options at construction', () => {
    expect(() => createRewriteQueryTransformer({ model: undefined as never })).toThrow(/model/);
    expect(() => createRewriteQueryTransformer({ model: answeringModel(() => ''), timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createHydeQueryTransformer({ model: answeringModel(() => ''), temperature: 1 } as never)).toThrow(/unknown option/);
  });
});
