import { describe, expect, it } from 'vitest';
import {
  createCompressionQueryTransformer,
  DEFAULT_COMPRESSION_TEMPLATE,
} from '../../../advisors/rag/query/compression-query-transformer.ts';
import { createHydeQueryTransformer, DEFAULT_HYDE_TEMPLATE } from '../../../advisors/rag/query/hyde-query-transformer.ts';
import { createLanguageModelRouter, DEFAULT_ROUTING_TEMPLATE } from '../../../advisors/rag/routing/language-model-router.ts';
import { createMultiQueryExpander, DEFAULT_MULTI_QUERY_TEMPLATE } from '../../../advisors/rag/query/multi-query-expander.ts';
import { fillPromptTemplate } from '../../../advisors/rag/prompt-template.ts';
import { createRewriteQueryTransformer, DEFAULT_REWRITE_TEMPLATE } from '../../../advisors/rag/query/rewrite-query-transformer.ts';
import {
  createTranslationQueryTransformer,
  DEFAULT_TRANSLATION_TEMPLATE,
} from '../../../advisors/rag/query/translation-query-transformer.ts';
import { AdvisorArgumentError } from '../../../src/errors/advisor-argument-error.ts';
import { answeringModel, keywordRetriever, stageInput } from './rag-test-helpers.ts';

const history = [
  { role: 'user' as const, content: 'Tell me about the Eiffel Tower.' },
  { role: 'assistant' as const, content: 'It is in Paris.' },
];

/** Each model-driven stage: how to build it with a template, run it once, and the placeholders it fills in. */
const stages = [
  {
    name: 'compression-query-transformer',
    defaultTemplate: DEFAULT_COMPRESSION_TEMPLATE,
    placeholders: ['history', 'query'],
    customTemplate: 'Chat so far:\n{history}\nRewrite "{query}" to stand alone.',
    expectedPrompt: (query: string) =>
      `Chat so far:\nUser: Tell me about the Eiffel Tower.\nAssistant: It is in Paris.\nRewrite "${query}" to stand alone.`,
    run: (template: string | undefined, answer: (prompt: string) => string, query: string) =>
      createCompressionQueryTransformer({ model: answeringModel(answer), ...(template === undefined ? {} : { template }) }).transform(
        query,
        stageInput({ history }),
      ),
  },
  {
    name: 'rewrite-query-transformer',
    defaultTemplate: DEFAULT_REWRITE_TEMPLATE,
    placeholders: ['query', 'targetSearchSystem'],
    customTemplate: 'Make this fit {targetSearchSystem}: {query}',
    formerTemplate: 'Make this fit {target}: {query}',
    expectedPrompt: (query: string) => `Make this fit a keyword index: ${query}`,
    run: (template: string | undefined, answer: (prompt: string) => string, query: string) =>
      createRewriteQueryTransformer({
        model: answeringModel(answer),
        targetSearchSystem: 'a keyword index',
        ...(template === undefined ? {} : { template }),
      }).transform(query, stageInput()),
  },
  {
    name: 'translation-query-transformer',
    defaultTemplate: DEFAULT_TRANSLATION_TEMPLATE,
    placeholders: ['query', 'targetLanguage'],
    customTemplate: 'Traduis en {targetLanguage} : {query}',
    formerTemplate: 'Traduis en {language} : {query}',
    expectedPrompt: (query: string) => `Traduis en English : ${query}`,
    run: (template: string | undefined, answer: (prompt: string) => string, query: string) =>
      createTranslationQueryTransformer({
        model: answeringModel(answer),
        targetLanguage: 'English',
        ...(template === undefined ? {} : { template }),
      }).transform(query, stageInput()),
  },
  {
    name: 'multi-query-expander',
    defaultTemplate: DEFAULT_MULTI_QUERY_TEMPLATE,
    placeholders: ['query', 'n'],
    customTemplate: 'Give {n} variants of: {query}',
    formerTemplate: 'Give {count} variants of: {query}',
    expectedPrompt: (query: string) => `Give 2 variants of: ${query}`,
    run: (template: string | undefined, answer: (prompt: string) => string, query: string) =>
      createMultiQueryExpander({ model: answeringModel(answer), n: 2, ...(template === undefined ? {} : { template }) }).transform(
        query,
        stageInput(),
      ),
  },
  {
    name: 'hyde-query-transformer',
    defaultTemplate: DEFAULT_HYDE_TEMPLATE,
    placeholders: ['query'],
    customTemplate: 'Write an encyclopedia paragraph answering: {query}',
    expectedPrompt: (query: string) => `Write an encyclopedia paragraph answering: ${query}`,
    run: (template: string | undefined, answer: (prompt: string) => string, query: string) =>
      createHydeQueryTransformer({ model: answeringModel(answer), ...(template === undefined ? {} : { template }) }).transform(
        query,
        stageInput(),
      ),
  },
  {
    name: 'language-model-router',
    defaultTemplate: DEFAULT_ROUTING_TEMPLATE,
    placeholders: ['routes', 'query'],
    customTemplate: 'Pick from\n{routes}\nfor: {query}',
    formerTemplate: 'Pick from\n{sources}\nfor: {query}',
    expectedPrompt: (query: string) => `Pick from\n1: product manuals\n2: invoices\nfor: ${query}`,
    run: (template: string | undefined, answer: (prompt: string) => string, query: string) =>
      createLanguageModelRouter({
        model: answeringModel(answer),
        routes: [
          { retriever: keywordRetriever('manuals', []), description: 'product manuals' },
          { retriever: keywordRetriever('billing', []), description: 'invoices' },
        ],
        ...(template === undefined ? {} : { template }),
      }).route(query, stageInput()),
  },
];

describe.each(stages)('the prompt template of $name', (stage) => {
  it('defaults to an exported template holding every placeholder the stage fills in', async () => {
    for (const placeholder of stage.placeholders) expect(stage.defaultTemplate).toContain(`{${placeholder}}`);
    let seen = '';
    await stage.run(undefined, (prompt) => ((seen = prompt), '1'), 'how tall is it');
    expect(seen).toContain('how tall is it');
    expect(seen).not.toMatch(/\{(?:query|history|n|targetLanguage|targetSearchSystem|routes)\}/);
  });

  it('sends a custom template filled in, and nothing else', async () => {
    let seen = '';
    await stage.run(stage.customTemplate, (prompt) => ((seen = prompt), '1'), 'how tall is it');
    expect(seen).toBe(stage.expectedPrompt('how tall is it'));
  });

  it('inserts the user text literally, even when it holds $& or a placeholder', async () => {
    let seen = '';
    const query = 'price in $& and $1 for {query} {routes} {sources} {history}';
    await stage.run(stage.customTemplate, (prompt) => ((seen = prompt), '1'), query);
    expect(seen).toBe(stage.expectedPrompt(query));
  });

  it.runIf('formerTemplate' in stage)('still fills a template written with the 0.2 placeholder names', async () => {
    let seen = '';
    await stage.run((stage as { formerTemplate: string }).formerTemplate, (prompt) => ((seen = prompt), '1'), 'how tall is it');
    expect(seen).toBe(stage.expectedPrompt('how tall is it'));
  });

  it.each(stage.placeholders)('refuses at construction a template without {%s}, naming it', (placeholder) => {
    const template = stage.customTemplate.replace(`{${placeholder}}`, '');
    let caught: unknown;
    try {
      void stage.run(template, () => '1', 'q');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AdvisorArgumentError);
    expect((caught as Error).message).toContain(`{${placeholder}}`);
    expect((caught as Error).message).toContain('template');
  });

  it('refuses a template that is not a string', () => {
    expect(() => stage.run(42 as never, () => '1', 'q')).toThrow(AdvisorArgumentError);
  });
});

describe('fillPromptTemplate', () => {
  it('replaces every occurrence of known placeholders in one pass and leaves other braces alone', () => {
    expect(fillPromptTemplate('{a} {b} {a} {unknown} {"json": 1}', { a: '{b}', b: '$&' })).toBe('{b} $& {b} {unknown} {"json": 1}');
  });
});
