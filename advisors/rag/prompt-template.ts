import { describeValue } from '../../src/extension/index.ts';
import { invalidOption } from './validate-rag-options.ts';

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/**
 * Checks at construction that a stage's prompt template is a string holding
 * every placeholder the stage fills in, so no option is silently left out of
 * the prompt; the error names the missing placeholders. The vocabulary: `{query}` is the text searched for,
 * `{question}` the user's question in an answer prompt, `{context}` the documents, and any other placeholder is
 * named after the option whose value it receives (`{n}`, `{targetLanguage}`, `{routes}`). `formerNames` maps a
 * placeholder to its 0.2 name, accepted in its place until 0.4.
 */
export function checkPromptTemplate({
  template,
  placeholders,
  component,
  argument = 'template',
  formerNames = {},
}: {
  template: unknown;
  placeholders: readonly string[];
  component: string;
  argument?: string;
  formerNames?: Readonly<Record<string, string>>;
}): string {
  if (typeof template !== 'string') {
    throw invalidOption({ component, argument }, `expected a string, got ${describeValue(template)}`);
  }
  const holds = (name: string) =>
    template.includes(`{${name}}`) || (formerNames[name] !== undefined && template.includes(`{${formerNames[name]}}`));
  const missing = placeholders.filter((name) => !holds(name)).map((name) => `{${name}}`);
  if (missing.length > 0) {
    throw invalidOption(
      { component, argument },
      `the template must contain the placeholder${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`,
    );
  }
  return template;
}

/**
 * Replaces `{name}` placeholders with `values[name]` in one pass with a
 * replacer function, so a value holding `$&` or another placeholder is
 * inserted exactly as written; braces around any other text are left alone.
 */
export function fillPromptTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (placeholder, name: string) => (Object.hasOwn(values, name) ? values[name] : placeholder));
}
