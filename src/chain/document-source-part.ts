import type { TextStreamPart, ToolSet } from 'ai';
import type { Document } from '../document/document.ts';

const SNIPPET_LENGTH = 280;

/**
 * The `source` stream part for a retrieved document: a URL source when the
 * document has a `url` in its metadata, a document source otherwise. Score and
 * a snippet travel in `providerMetadata.advisors` so a page can render them.
 */
export function documentSourcePart(document: Document): TextStreamPart<ToolSet> {
  const { metadata } = document;
  const title = stringField(metadata.title) ?? stringField(metadata.source) ?? document.id;
  const providerMetadata = {
    advisors: {
      score: document.score ?? null,
      snippet: document.text.length > SNIPPET_LENGTH ? `${document.text.slice(0, SNIPPET_LENGTH)}…` : document.text,
    },
  };
  const url = stringField(metadata.url);
  if (url !== undefined) {
    return { type: 'source', sourceType: 'url', id: document.id, url, title, providerMetadata };
  }
  return {
    type: 'source',
    sourceType: 'document',
    id: document.id,
    mediaType: stringField(metadata.mediaType) ?? 'text/plain',
    title,
    filename: stringField(metadata.filename),
    providerMetadata,
  };
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
