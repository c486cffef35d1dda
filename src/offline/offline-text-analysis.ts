import { ENGLISH_STOP_WORDS } from '../bm25/english-stop-words.ts';
import { createMultilingualAnalyzer } from '../bm25/multilingual-analyzer.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { QUESTION_STOP_WORDS } from './question-stop-words.ts';

/**
 * How the offline models read text in `locale`: a sentence segmenter, and an
 * analyzer whose terms leave out stop words and the words that carry no topic
 * in a question. A locale `Intl` refuses is the caller's `locale` argument error.
 */
export function offlineTextAnalysis(
  locale: string | undefined,
  component: string,
): {
  segmenter: Intl.Segmenter;
  analyze: (text: string) => string[];
} {
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  } catch (error) {
    throw new AdvisorArgumentError({ component, argument: 'locale', message: (error as Error).message });
  }
  const analyze = createMultilingualAnalyzer({
    stopWords: [...ENGLISH_STOP_WORDS, ...QUESTION_STOP_WORDS],
    ...(locale === undefined ? {} : { locale }),
  });
  return { segmenter, analyze };
}
