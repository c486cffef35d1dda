import { describe, expect, it } from 'vitest';
import { cleanModelQuery, stripEnclosingQuotes } from '../../../advisors/rag/query/clean-model-query.ts';
import { parseQueryList } from '../../../advisors/rag/query/parse-query-list.ts';

describe('parseQueryList keeps what the model wrote', () => {
  it.each([
    '3.5 mm headphone jack',
    'Q-learning convergence proof',
    '1.5 degree warming targets',
    'C++ move semantics',
    '"Hamlet" plot summary',
    'the "Hamlet" plot',
    "'What's new' in ES2024, reviewed",
    '"quoted" and "another"',
    'query: with a colon inside',
    '-5 degrees celsius',
    '2024 election results',
  ])('%j', (query) => {
    expect(parseQueryList(query)).toEqual([query]);
  });

  it('removes a real list marker followed by whitespace, and only that', () => {
    const answer = [
      '1. 3.5 mm headphone jack',
      '2) Q-learning convergence proof',
      '(3) "Hamlet" plot summary',
      '- - 5 from the end',
      '* C++ move semantics',
      '•\tRNA splicing',
    ].join('\n');
    expect(parseQueryList(answer)).toEqual([
      '3.5 mm headphone jack',
      'Q-learning convergence proof',
      '"Hamlet" plot summary',
      '- 5 from the end',
      'C++ move semantics',
      'RNA splicing',
    ]);
  });

  it('strips quotes only when they enclose the whole line, and keeps closing quotes', () => {
    expect(parseQueryList('1. "caffeine and sleep"\n2. “coffee insomnia”\n3. \'What\'s new in ES2024\'\n4. he said "yes"')).toEqual([
      'caffeine and sleep',
      'coffee insomnia',
      "What's new in ES2024",
      'he said "yes"',
    ]);
  });

  it('reads a JSON-like list that is not valid JSON, element by element', () => {
    expect(parseQueryList('[\n  "caffeine and sleep",\n  "coffee insomnia",\n]')).toEqual(['caffeine and sleep', 'coffee insomnia']);
  });

  it('keeps JSON array entries verbatim', () => {
    expect(parseQueryList('```json\n["3.5 mm jack", "\\"Hamlet\\" plot summary", "- not a bullet"]\n```')).toEqual([
      '3.5 mm jack',
      '"Hamlet" plot summary',
      '- not a bullet',
    ]);
  });

  it('skips blank lines, separators and introductions', () => {
    expect(parseQueryList('Here are three queries:\n\n---\nsleep latency\n\n***\nadenosine')).toEqual(['sleep latency', 'adenosine']);
  });
});

describe('cleanModelQuery', () => {
  it('keeps quotes that are part of the query', () => {
    expect(cleanModelQuery('"Hamlet" plot summary')).toBe('"Hamlet" plot summary');
    expect(cleanModelQuery('plot of "Hamlet"')).toBe('plot of "Hamlet"');
    expect(cleanModelQuery('"Hamlet" vs "Macbeth"')).toBe('"Hamlet" vs "Macbeth"');
  });

  it('removes quotes, a label and a code fence around the whole query', () => {
    expect(cleanModelQuery('"Hamlet plot summary"')).toBe('Hamlet plot summary');
    expect(cleanModelQuery('Rewritten query: "3.5 mm headphone jack"')).toBe('3.5 mm headphone jack');
    expect(cleanModelQuery('```\n‘Q-learning convergence proof’\n```')).toBe('Q-learning convergence proof');
  });

  it('returns undefined for an empty answer or empty quotes', () => {
    expect(cleanModelQuery(' \n ')).toBeUndefined();
    expect(cleanModelQuery('""')).toBeUndefined();
  });
});

describe('stripEnclosingQuotes', () => {
  it.each([
    ['"a b"', 'a b'],
    ["'it's here'", "it's here"],
    ['«bonjour»', 'bonjour'],
    ['「東京」', '東京'],
    ['"a" b', '"a" b'],
    ['"a" "b"', '"a" "b"'],
    ["'a' b 'c'", "'a' b 'c'"],
    ['"', '"'],
    ['"unclosed', '"unclosed'],
  ])('%j becomes %j', (line, expected) => {
    expect(stripEnclosingQuotes(line)).toBe(expected);
  });
});
