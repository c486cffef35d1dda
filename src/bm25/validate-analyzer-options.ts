import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkBoolean } from '../util/check-options.ts';
import { describeValue } from '../context/context-key.ts';

export function validateStopWords(component: string, argument: string, stopWords: unknown): void {
  if (!Array.isArray(stopWords) || stopWords.some((word) => typeof word !== 'string')) {
    throw new AdvisorArgumentError({ component, argument, message: `expected an array of strings, got ${describeValue(stopWords)}` });
  }
}

export function validateStemming(component: string, stemming: unknown): void {
  checkBoolean(stemming, { component, argument: 'stemming' });
}

export function validateAnalyzerText(component: string, text: unknown): void {
  if (typeof text !== 'string') {
    throw new AdvisorArgumentError({ component, argument: 'text', message: `expected a string, got ${describeValue(text)}` });
  }
}
