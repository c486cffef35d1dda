import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { describeValue } from '../context/context-key.ts';

/**
 * Abbreviations that do not end a sentence, by language (the language subtag of
 * the sentence splitters' `locale`). `Intl.Segmenter` already keeps a sentence
 * going when a lowercase word follows the period; these lists cover a capitalized
 * name or number after a title or a reference (`Dr. Watson`, `Fig. 3`). Matching is
 * case-sensitive, on the word that ends just before a cut.
 *
 * Each list leaves out abbreviations that often end a sentence too (`etc.`, `U.S.`):
 * pass your own list, built on these, to add them or others.
 *
 * @example
 * createSentenceSplitter({ locale: 'fr', abbreviations: [...SENTENCE_ABBREVIATIONS.fr, 'S.A.'] });
 */
export const SENTENCE_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  en: [
    ...['Mr.', 'Mrs.', 'Ms.', 'Dr.', 'Prof.', 'Sr.', 'Jr.', 'St.', 'Mt.', 'Rev.', 'Hon.'],
    ...['Gen.', 'Col.', 'Capt.', 'Lt.', 'Sgt.', 'Gov.', 'Sen.', 'Rep.', 'Inc.', 'Ltd.', 'Co.', 'Corp.'],
    ...['vs.', 'e.g.', 'i.e.', 'cf.', 'approx.', 'al.', 'No.', 'Nos.', 'Vol.', 'Fig.', 'Figs.', 'Eq.', 'Ref.', 'pp.'],
    ...['Jan.', 'Feb.', 'Mar.', 'Apr.', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'],
  ],
  de: [
    ...['Dr.', 'Prof.', 'Hr.', 'Fr.', 'Nr.', 'Abb.', 'Tab.', 'Bd.', 'Kap.', 'vgl.', 'z.B.', 'd.h.', 'u.a.'],
    ...['bzw.', 'ca.', 'bspw.', 'ggf.', 'evtl.', 'inkl.', 'Jan.', 'Feb.', 'Aug.', 'Sept.', 'Okt.', 'Nov.', 'Dez.'],
  ],
  fr: ['M.', 'MM.', 'Mme.', 'Mlle.', 'Dr.', 'Pr.', 'Me.', 'cf.', 'p.ex.', 'env.', 'vol.', 'fig.', 'janv.', 'févr.', 'oct.', 'nov.', 'déc.'],
  es: ['Sr.', 'Sra.', 'Srta.', 'Dr.', 'Dra.', 'Ud.', 'Uds.', 'Lic.', 'Ing.', 'p.ej.', 'aprox.', 'núm.', 'pág.', 'cap.', 'fig.'],
};

/** Whether a sentence may end at `cut`: not when the word just before it is a known abbreviation. */
export type AbbreviationCheck = (text: string, cut: number) => boolean;

/**
 * The abbreviations the sentence splitters use: `abbreviations` when given, else
 * the list of `locale`'s language, else English's.
 */
export function abbreviationCheck(component: string, abbreviations: unknown, locale: string | undefined): AbbreviationCheck {
  const list = abbreviations ?? SENTENCE_ABBREVIATIONS[languageOf(locale)] ?? SENTENCE_ABBREVIATIONS.en;
  if (!Array.isArray(list) || !list.every((abbreviation) => typeof abbreviation === 'string' && /^\S+$/.test(abbreviation))) {
    throw new AdvisorArgumentError({
      component,
      argument: 'abbreviations',
      message: `expected an array of words such as ['Dr.', 'e.g.'], got ${describeValue(abbreviations)}`,
    });
  }
  const known = new Set<string>(list);
  const longest = Math.max(0, ...[...known].map((abbreviation) => abbreviation.length));
  return (text, cut) => {
    // Look back at most the longest abbreviation (and an opening bracket): a text without spaces costs no more.
    const from = Math.max(0, cut - longest - 1);
    let start = cut;
    while (start > from && !/\s/.test(text[start - 1])) start--;
    return !known.has(text.slice(start, cut).replace(/^[([{"'“‘«]+/, ''));
  };
}

function languageOf(locale: string | undefined): string {
  return (locale ?? new Intl.Segmenter().resolvedOptions().locale).split('-')[0].toLowerCase();
}
