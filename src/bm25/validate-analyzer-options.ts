import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

export function validateStopWords(component: string, argument: string, stopWords: unknown): void {
  if (!Array.isArray(stopWords) || stopWords.some((word) => typeof word !== 'string')) {
    throw new AdvisorArgumentError({ component, argument, message: 'expected an array of strings' });
  }
}

export function validateStemming(component: string, stemming: unknown): void {
  if (typeof stemming !== 'boolean') {
    throw new AdvisorArgumentError({ component, argument: 'stemming', message: `expected a boolean, got ${typeof stemming}` });
  }
}

export function validateAnalyzerText(component: string, text: unknown): void {
  if (typeof text !== 'string') {
    throw new AdvisorArgumentError({ component, argument: 'text', message: `expected a string, got ${typeof text}` });
  }
}
