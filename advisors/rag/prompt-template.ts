import { describeValue } from '../../src/extension/index.ts';
import { invalidOption } from './validate-rag-options.ts';

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/**
 * Checks at construction that a stage's prompt template is a string holding
 * every placeholder the stage fills in, so no option is silently left out of
 * the prompt; the error names the missing placeholders.
 */
export function checkPromptTemplate({
  template,
  placeholders,
  component,
  argument = 'template',
}: {
  template: unknown;
  placeholders: readonly string[];
  component: string;
  argument?: string;
}): string {
  if (typeof template !== 'string') {
    throw invalidOption({ component, argument }, `expected a string, got ${describeValue(template)}`);
  }
  const missing = placeholders.map((name) => `{${name}}`).filter((placeholder) => !template.includes(placeholder));
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
