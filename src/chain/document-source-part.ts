import type { TextStreamPart, ToolSet } from 'ai';
import type { Document } from '../document/document.ts';
import { redactSecrets } from '../security/redact-secrets.ts';

/** Most `source` parts one turn sends; the rest of its documents stay on the server (`result.sources`). */
export const MAX_SOURCE_PARTS = 20;
const SNIPPET_LENGTH = 280;
const MAX_TITLE_LENGTH = 200;
const MAX_ID_LENGTH = 256;
const MAX_FILENAME_LENGTH = 255;
const MAX_URL_LENGTH = 2_048;
const REDACTION_MARGIN = 1_024;

/**
 * The `source` stream part for a retrieved document: a URL source when the
 * document has a `url` in its metadata (of at most 2,048 characters), a
 * document source otherwise. Score and a snippet travel in
 * `providerMetadata.advisors` so a page can render them.
 *
 * Only these fields leave the server, each cut to a bounded length (title 200
 * characters, snippet 280, id 256, filename 255) and redacted like every log
 * line (credentials in the snippet, a password in the URL, a token in its
 * query string): a source is as public as the answer.
 */
export function documentSourcePart(document: Document): TextStreamPart<ToolSet> {
  const { metadata } = document;
  const id = bounded(document.id, MAX_ID_LENGTH);
  const named = stringField(metadata.title) ?? stringField(metadata.source);
  // Without a title the id stands in, redacted once: the id's bound is the longer, so the title's cut of it is the same.
  const title = named === undefined ? cut(id, MAX_TITLE_LENGTH) : bounded(named, MAX_TITLE_LENGTH);
  const providerMetadata = {
    advisors: { score: document.score ?? null, snippet: bounded(document.text, SNIPPET_LENGTH) },
  };
  const url = stringField(metadata.url);
  if (url !== undefined && url.length <= MAX_URL_LENGTH) {
    return { type: 'source', sourceType: 'url', id, url: redactSecrets(url), title, providerMetadata };
  }
  const filename = stringField(metadata.filename);
  const mediaType = stringField(metadata.mediaType);
  return {
    type: 'source',
    sourceType: 'document',
    id,
    mediaType: mediaType === undefined ? 'text/plain' : bounded(mediaType, 100),
    title,
    filename: filename === undefined ? undefined : bounded(filename, MAX_FILENAME_LENGTH),
    providerMetadata,
  };
}

/** The parts last made of a list of documents, with the documents they were made of. */
const madeParts = new WeakMap<readonly Document[], { documents: readonly Document[]; parts: readonly TextStreamPart<ToolSet>[] }>();

/**
 * The `source` parts of a turn's documents: the first {@link MAX_SOURCE_PARTS}, in their order. A turn asks twice
 * for the same list (the stream sends them, chat memory stores them with the turn): the second time, while the list
 * still holds the same documents, gets the parts made the first time instead of redacting every field again.
 */
export function documentSourceParts(documents: readonly Document[]): TextStreamPart<ToolSet>[] {
  // A turn without documents (no retrieval, or nothing found) needs no part, and no cache entry kept for it.
  if (documents.length === 0) return [];
  const sent = documents.slice(0, MAX_SOURCE_PARTS);
  const made = madeParts.get(documents);
  if (made !== undefined && made.documents.length === sent.length && made.documents.every((document, index) => document === sent[index])) {
    return [...made.parts];
  }
  const parts = sent.map(documentSourcePart);
  madeParts.set(documents, { documents: sent, parts });
  return [...parts];
}

/**
 * Redacted, then cut to `maxLength`. Only what the cut keeps is redacted, up to the first whitespace past it (at most a
 * margin past it): a credential that straddles the cut is still recognised whole, and a long document costs no more
 * than its snippet. A credential runs unbroken to there (key formats, JWTs, URL passwords, unquoted values hold no
 * whitespace), and a quoted value or a PEM block opened before the cut is redacted to the end of what is given.
 */
function bounded(text: string, maxLength: number): string {
  if (text.length <= maxLength) return redactSecrets(text);
  const past = text.slice(maxLength, maxLength + REDACTION_MARGIN);
  const space = past.search(/\s/);
  return cut(redactSecrets(text.slice(0, maxLength + (space === -1 ? past.length : space))), maxLength);
}

function cut(text: string, maxLength: number): string {
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
