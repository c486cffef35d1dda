import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeguardAdvisor } from '../../advisors/index.ts';
import { foldForMatching } from '../../advisors/safeguard/normalize-for-matching.ts';
import { createChatClient } from '../../src/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';

const SMALL_CAPITALS = 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡxʏᴢ';
const offset = (letter: string) => letter.charCodeAt(0) - 0x61;

/** Ways to write one lower-case ASCII letter that read as that letter. */
const LETTER_FORMS: readonly ((letter: string) => string)[] = [
  (letter) => letter,
  (letter) => letter.toUpperCase(),
  (letter) => String.fromCodePoint(0xff41 + offset(letter)), // fullwidth
  (letter) => String.fromCodePoint(0x1d41a + offset(letter)), // mathematical bold
  (letter) => String.fromCodePoint(0x1d5ee + offset(letter)), // mathematical sans-serif bold
  (letter) => String.fromCodePoint(0x24d0 + offset(letter)), // circled small
  (letter) => String.fromCodePoint(0x1f130 + offset(letter)), // squared capital
  (letter) => String.fromCodePoint(0x1f170 + offset(letter)), // negative squared capital
  (letter) => String.fromCodePoint(0x1f1e6 + offset(letter)), // regional indicator
  (letter) => [...SMALL_CAPITALS][offset(letter)]!,
];
const DIACRITIC = fc.integer({ min: 0x0300, max: 0x036f }).map((code) => String.fromCodePoint(code));
const INVISIBLE = fc.constantFrom('\u200B', '\u200C', '\u200D', '\u2060', '\u00AD', '\uFEFF');

/** A letter in one of its forms, with up to two diacritics and an invisible character after it. */
const disguisedLetter = (letter: string) =>
  fc
    .tuple(fc.constantFrom(...LETTER_FORMS), fc.array(DIACRITIC, { maxLength: 2 }), fc.option(INVISIBLE, { nil: '' }))
    .map(([form, diacritics, invisible]) => form(letter) + diacritics.join('') + invisible);

const term = fc.stringMatching(/^[a-z]{3,10}$/);
const spelling = (word: string) => fc.tuple(...[...word].map(disguisedLetter)).map((letters) => letters.join(''));
const surroundingWords = fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 4 }).map((words) => words.join(' '));

describe('safeguardAdvisor (property)', () => {
  it('blocks any spelling that folds to a blocked term: letter forms, diacritics and invisible characters mixed at will', async () => {
    await fc.assert(
      fc.asyncProperty(
        term.chain((word) => fc.tuple(fc.constant(word), spelling(word), surroundingWords, surroundingWords)),
        async ([word, disguised, before, after]) => {
          const model = mockModel([textParts(['model answer'])]);
          const chat = createChatClient({ model, advisors: [safeguardAdvisor({ blockedTerms: [word], answer: 'Blocked.' })] });
          const result = await chat.generate({ prompt: `${before} ${disguised} ${after}` });
          expect(result.text, `"${disguised}" reads as "${word}"`).toBe('Blocked.');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does no more than a bounded amount of work on any text: readings never exceed the limit', () => {
    const anyText = fc.string({ unit: 'binary', maxLength: 400 });
    fc.assert(
      fc.property(fc.array(anyText, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 4 }), (texts, factor) => {
        const length = texts.reduce((sum, text) => sum + text.length, 0);
        const maxLength = factor * length + 8;
        const readings = foldForMatching(texts, { maxLength });
        if (readings !== undefined) for (const reading of readings) expect(reading.length).toBeLessThanOrEqual(maxLength);
      }),
      { numRuns: 500 },
    );
  });
});
