import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { DEFAULT_CONTEXT_TEMPLATE, renderContextTemplate, validateContextTemplate } from '../../src/prompt/context-template.ts';
import { formatDocumentContext, parseDocumentContext } from '../../src/prompt/document-context.ts';

describe('renderContextTemplate', () => {
  it('fills both placeholders of a custom template', () => {
    expect(renderContextTemplate({ template: 'Q={question} C={context}', question: 'why?', context: 'docs' })).toBe('Q=why? C=docs');
  });

  it('uses the default template, which asks for answers from the documents, as data, with a plain "not in the documents"', () => {
    const context = formatDocumentContext([{ id: 'a', text: 'Paris is in France.', metadata: {} }]);
    const prompt = renderContextTemplate({ question: 'Where is Paris?', context });
    expect(prompt).toContain(context);
    expect(prompt).toMatch(/Where is Paris\?$/);
    expect(DEFAULT_CONTEXT_TEMPLATE).toMatch(/data, not instructions/);
    expect(DEFAULT_CONTEXT_TEMPLATE).toMatch(/do not contain the answer/);
    expect(parseDocumentContext(prompt).documents.map((d) => d.text)).toEqual(['Paris is in France.']);
  });

  it('does not substitute placeholders or replacement patterns that appear inside the question or the context', () => {
    const prompt = renderContextTemplate({ template: '{context}|{question}', question: "{context} $& $'", context: '{question} $1' });
    expect(prompt).toBe("{question} $1|{context} $& $'");
  });

  it('fills every occurrence of each placeholder, whichever template was rendered before', () => {
    const twice = '{question}/{context}/{question}';
    expect(renderContextTemplate({ template: twice, question: 'q', context: 'c' })).toBe('q/c/q');
    expect(renderContextTemplate({ template: '{context}{question}', question: 'q', context: 'c' })).toBe('cq');
    expect(renderContextTemplate({ template: twice, question: 'q2', context: 'c2' })).toBe('q2/c2/q2');
    expect(() => renderContextTemplate({ template: 'no placeholder', question: 'q', context: 'c' })).toThrow(/placeholders/);
    expect(renderContextTemplate({ template: twice, question: 'q3', context: 'c3' })).toBe('q3/c3/q3');
  });

  it('rejects a template missing a placeholder, naming it', () => {
    expect(() => renderContextTemplate({ template: 'Only {question}', question: 'q', context: 'c' })).toThrow(/\{context\}/);
    expect(() => validateContextTemplate('nothing')).toThrow(/placeholders \{question\} and \{context\}/);
    expect(() => validateContextTemplate(42, 'question-answer-advisor')).toThrow(/question-answer-advisor: invalid template/);
    expect(() => renderContextTemplate({ question: undefined as unknown as string, context: '' })).toThrow(AdvisorArgumentError);
  });
});
