import type { Document } from '../../../src/index.ts';
import { checkNonEmptyString, checkPositiveInteger } from '../../../src/extension/index.ts';
import type { DocumentPostProcessor } from './document-post-processor.ts';
import { metadataTime } from './metadata-time.ts';
import { checkRagOptions } from '../validate-rag-options.ts';

/** Options of `createFixedRecencyPostProcessor`. */
export interface FixedRecencyPostProcessorOptions {
  /** Metadata key holding the document's date: a `Date`, an ISO 8601 string or epoch milliseconds. Default `date`. */
  readonly dateKey?: string;
  /** How many of the newest documents are kept. Default 1. */
  readonly topK?: number;
}

/**
 * Keeps the `topK` newest documents, newest first (LlamaIndex's
 * `FixedRecencyPostprocessor`), for questions about the current state of
 * things ("the latest release notes"). Documents with the same date keep
 * their order; documents without a readable date come after every dated one.
 *
 * @example
 * retrievalAugmentationAdvisor({ retrievers: [retriever], topK: 10, postProcessors: [createFixedRecencyPostProcessor({ dateKey: 'publishedAt', topK: 3 })] })
 */
export function createFixedRecencyPostProcessor(options: FixedRecencyPostProcessorOptions = {}): DocumentPostProcessor {
  const component = 'fixed-recency';
  checkRagOptions(options, { component, known: ['dateKey', 'topK'] });
  const dateKey = checkNonEmptyString(options.dateKey ?? 'date', { component, argument: 'dateKey' });
  const topK = checkPositiveInteger(options.topK ?? 1, { component, argument: 'topK' });
  return {
    name: component,
    process: (documents) => newestFirst(documents, dateKey).slice(0, topK),
  };
}

function newestFirst(documents: readonly Document[], dateKey: string): Document[] {
  const dated = documents.map((document) => ({ document, time: metadataTime(document.metadata[dateKey]) ?? -Infinity }));
  return dated.sort((a, b) => (b.time === a.time ? 0 : b.time > a.time ? 1 : -1)).map(({ document }) => document);
}
