import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { toChunkDocuments } from './chunk-documents.ts';
import type { TextSplitter } from './document-splitter.ts';
import type { TextMeasure, TextRange } from './text-ranges.ts';
import { assertDocuments } from './validate-options.ts';
import { checkFunction } from '../util/check-options.ts';
import type { Document } from '../document/document.ts';

/** The text of a document's metadata that the model sees next to each of its chunks. */
export type MetadataText = (metadata: Document['metadata']) => string;

/** What a chunk may hold: `chunkSize` less what the metadata the model sees with it takes. */
export interface ChunkBudget {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly measure: TextMeasure;
  readonly metadataText?: MetadataText;
}

/**
 * Builds a `TextSplitter` from a function that finds chunk ranges in a text, in
 * chunks of at most a given size: `budget.chunkSize`, or, for a document when
 * `budget.metadataText` is set, what is left of it once that document's metadata
 * text is measured. Without a budget, chunks have no size limit.
 */
export function rangeSplitter(
  component: string,
  rangesOf: (text: string, chunkSize: number) => TextRange[],
  budget?: ChunkBudget,
): TextSplitter {
  const chunkSize = budget?.chunkSize ?? Infinity;
  const metadataText = budget?.metadataText;
  if (metadataText !== undefined) checkFunction(metadataText, { component, argument: 'metadataText' });
  return {
    split(documents) {
      assertDocuments(component, documents);
      return documents.flatMap((document) =>
        toChunkDocuments(document, rangesOf(document.text, metadataText ? chunkSizeBeside(component, document, budget!) : chunkSize)),
      );
    },
    splitText(text) {
      return rangesOf(text, chunkSize).map(({ start, end }) => text.slice(start, end));
    },
  };
}

function chunkSizeBeside(component: string, document: Document, { chunkSize, chunkOverlap, measure, metadataText }: ChunkBudget): number {
  const text = metadataText!(document.metadata);
  if (typeof text !== 'string') {
    throw new AdvisorArgumentError({ component, argument: 'metadataText', message: `expected it to return a string, got ${typeof text}` });
  }
  const size = measure(text)(0, text.length);
  if (chunkSize - size <= chunkOverlap) {
    throw new AdvisorArgumentError({
      component,
      argument: 'metadataText',
      message:
        `the metadata text of document "${document.id}" measures ${size} of chunkSize ${chunkSize}, ` +
        `leaving ${chunkSize - size}, not more than chunkOverlap (${chunkOverlap}): raise chunkSize or show less metadata`,
    });
  }
  return chunkSize - size;
}
