import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

const EXCERPT_RADIUS = 30;

/**
 * Malformed filter text. `index` is the 0-based position of the problem in the
 * text; the message names what was expected there and shows an excerpt with a
 * caret under that position.
 */
export class FilterParseError extends AdvisorArgumentError {
  readonly index: number;
  readonly expected: string;

  constructor({ text, index, expected, problem }: { text: string; index: number; expected: string; problem: string }) {
    super({
      component: 'filter',
      argument: 'filter text',
      message: `${problem} at index ${index}\n${excerpt(text, index)}`,
    });
    this.name = 'FilterParseError';
    this.index = index;
    this.expected = expected;
  }
}

function excerpt(text: string, index: number): string {
  const start = Math.max(0, index - EXCERPT_RADIUS);
  const end = Math.min(text.length, index + EXCERPT_RADIUS);
  const prefix = start > 0 ? '...' : '';
  const suffix = end < text.length ? '...' : '';
  // Control characters and line breaks would misalign the caret.
  const visible = text.slice(start, end).replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `  ${prefix}${visible}${suffix}\n  ${' '.repeat(prefix.length + index - start)}^`;
}
