import { toChunkDocuments } from './chunk-documents.ts';
import type { TextSplitter } from './document-splitter.ts';
import type { TextRange } from './text-ranges.ts';
import { assertDocuments } from './validate-options.ts';

/** Builds a `TextSplitter` from a function that finds chunk ranges in a text. */
export function rangeSplitter(component: string, rangesOf: (text: string) => TextRange[]): TextSplitter {
  return {
    split(documents) {
      assertDocuments(component, documents);
      return documents.flatMap((document) => toChunkDocuments(document, rangesOf(document.text)));
    },
    splitText(text) {
      return rangesOf(text).map(({ start, end }) => text.slice(start, end));
    },
  };
}
