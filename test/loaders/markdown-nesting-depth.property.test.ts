import fc from 'fast-check';
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { markdownNestsDeeperThan } from '../../src/loaders/markdown-blocks.ts';

/** How deep marked's block lexer nests quotes and lists in `markdown` (undefined where marked fails). */
function lexedDepth(markdown: string): number | undefined {
  const depthOf = (tokens: readonly Token[]): number =>
    Math.max(
      0,
      ...tokens.map((token) => {
        if (token.type === 'blockquote') return 1 + depthOf(token.tokens ?? []);
        if (token.type === 'list') return 1 + Math.max(0, ...token.items.map((item: { tokens: Token[] }) => depthOf(item.tokens)));
        return 0;
      }),
    );
  try {
    return depthOf(new Lexer().blockTokens(markdown, []));
  } catch {
    return undefined;
  }
}

const linePrefix = fc.array(fc.constantFrom(' ', '  ', '\t', '> ', '>', '- ', '* ', '+ ', '1. ', '10) ', '-'), { maxLength: 8 });
const line = fc
  .tuple(linePrefix, fc.constantFrom('text', '', '```', '# heading', '---', '    code'))
  .map(([prefix, rest]) => prefix.join('') + rest);

describe('markdownNestsDeeperThan', () => {
  it('never counts less nesting of quotes and lists than marked builds', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const markdown = lines.join('\n');
        const depth = lexedDepth(markdown);
        if (depth !== undefined && depth > 0) expect(markdownNestsDeeperThan(markdown, depth - 1), JSON.stringify(markdown)).toBe(true);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 1000) },
    );
  });
});
