import type { Analyzer } from './analyzer.ts';
import { englishAnalyzer } from './english-analyzer.ts';
import { multilingualAnalyzer } from './multilingual-analyzer.ts';

/** Built-in analyzers by name: a snapshot names its analyzer, and worker threads receive it by name. */
export const BUILT_IN_ANALYZERS: ReadonlyMap<string, Analyzer> = new Map([
  ['multilingual', multilingualAnalyzer],
  ['english', englishAnalyzer],
]);

/** The name of a built-in analyzer, or `undefined` for any other function. */
export function builtInAnalyzerName(analyzer: Analyzer): string | undefined {
  return [...BUILT_IN_ANALYZERS].find(([, builtIn]) => builtIn === analyzer)?.[0];
}
