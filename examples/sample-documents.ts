import { fileURLToPath } from 'node:url';
import { createRecursiveCharacterSplitter } from '../src/ingestion/index.ts';
import { type Document } from '../src/index.ts';
import { loadMarkdown } from '../src/loaders/index.ts';

/** The two sample documents written for the examples (a biography and a company's terms of use). */
export const SAMPLE_FILES = {
  biography: fileURLToPath(new URL('./data/helena-marsh-biography.md', import.meta.url)),
  termsOfUse: fileURLToPath(new URL('./data/brightwater-terms-of-use.md', import.meta.url)),
} as const;

export type SampleSource = keyof typeof SAMPLE_FILES;

/**
 * Loads the sample Markdown files one section per document and splits long
 * sections into chunks of at most 400 characters. Every chunk carries
 * `title` (document and section), `source` (`biography` or `termsOfUse`) and
 * `fileName` in its metadata, so answers can cite it and filters can select it.
 */
export async function loadSampleDocuments(sources: readonly SampleSource[] = ['biography', 'termsOfUse']): Promise<Document[]> {
  const splitter = createRecursiveCharacterSplitter({ chunkSize: 400 });
  const sections = await Promise.all(
    sources.map(async (source) => {
      const loaded = await loadMarkdown(SAMPLE_FILES[source], { sections: true, id: source, metadata: { source } });
      const documentTitle = loaded.find((section) => typeof section.metadata.title === 'string')?.metadata.title;
      return (
        loaded
          // The heading goes into the title; the text keeps only the prose, which is what answers quote.
          .map((section) => ({
            ...section,
            text: section.text.replace(/^#+ [^\n]*\n+/, '').trim(),
            metadata: { ...section.metadata, title: sectionTitle(documentTitle, section) },
          }))
          .filter((section) => section.text !== '')
      );
    }),
  );
  return splitter.split(sections.flat());
}

function sectionTitle(documentTitle: unknown, section: Document): string {
  const path = Array.isArray(section.metadata.headingPath) ? section.metadata.headingPath.map(String) : [];
  const heading = path.at(-1);
  return heading === undefined || heading === documentTitle ? String(documentTitle) : `${String(documentTitle)} › ${heading}`;
}
