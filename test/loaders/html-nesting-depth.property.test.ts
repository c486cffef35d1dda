import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/loaders/html-nesting-depth.ts';

/** The deepest nesting htmlparser2 (html-to-text's parser) builds for `html`. */
function parsedDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  const parser = new Parser(
    {
      onopentag: () => (deepest = Math.max(deepest, ++depth)),
      onclosetag: () => depth--,
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return deepest;
}

const TAGS = [
  ...['div', 'p', 'li', 'ul', 'dd', 'dt', 'td', 'th', 'tr', 'tbody', 'thead', 'table', 'option', 'optgroup', 'select', 'h1'],
  ...['svg', 'math', 'foreignObject', 'desc', 'mi', 'title', 'script', 'style', 'textarea', 'xmp', 'br', 'img', 'b', 'DIV'],
];
const piece = fc.oneof(
  fc.constantFrom(...TAGS).map((tag) => `<${tag}>`),
  fc.constantFrom(...TAGS).map((tag) => `</${tag}>`),
  fc.constantFrom(...TAGS).map((tag) => `<${tag}/>`),
  fc.constantFrom(...TAGS).map((tag) => `<${tag} a="x>y" b='<div>' c=d>`),
  fc.constantFrom(...TAGS).map((tag) => `<${tag} href=/>`),
  fc.constantFrom('text', '<!-- <div> -->', '<!doctype html>', '<', '>', '"', "'", '=', ' ', '<?x ?>', '<![CDATA[<div>]]>'),
);

describe('nestsDeeperThan', () => {
  it('never counts less nesting than htmlparser2 builds, on tag soup', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const html = pieces.join('');
        const depth = parsedDepth(html);
        if (depth > 0) expect(nestsDeeperThan(html, depth - 1), html).toBe(true);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 2000) },
    );
  });

  it('counts well-formed nesting exactly', () => {
    const html = '<div><ul><li>a<li>b<ul><li>c</ul></ul></div><p>d<p>e';
    expect(parsedDepth(html)).toBe(5);
    expect(nestsDeeperThan(html, 5)).toBe(false);
    expect(nestsDeeperThan(html, 4)).toBe(true);
  });
});
