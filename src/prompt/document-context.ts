import type { Document } from '../document/document.ts';
import { requireDocument } from '../document/require-document.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

const COMPONENT = 'document-context';
/** Attributes the format itself writes; metadata keys may not reuse them. */
const RESERVED_ATTRIBUTES = ['index', 'id'];
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const BLOCK = /<documents>([\s\S]*?)<\/documents>/g;
// Escaped text and attribute values contain no `<` and no `"`, so these cannot overrun a document.
const DOCUMENT = /<document((?:\s+[A-Za-z_][A-Za-z0-9_.-]*="[^"<]*")*)\s*>\n?([^<]*?)\n?<\/document>/g;
const ATTRIBUTE = /([A-Za-z_][A-Za-z0-9_.-]*)="([^"<]*)"/g;

const MARKUP = /[&<>]/g;
const MARKUP_AND_QUOTES = /[&<>"']/g;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const UNESCAPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ESCAPES).map(([character, entity]) => [entity, character]),
);

/** Options of `formatDocumentContext`. */
export interface FormatDocumentContextOptions {
  /**
   * Metadata keys rendered as attributes of each document, in this order.
   * A document's `metadata.title` is always rendered as `title` when it is a string.
   */
  readonly metadataKeys?: readonly string[];
}

/** A document read back from a prompt by `parseDocumentContext`. */
export interface ParsedDocument {
  /** The 1-based position in its block; answers cite documents as `[index]`. */
  readonly index: number;
  readonly id: string;
  readonly title?: string;
  /** The document text, unescaped: exactly the text that was formatted. */
  readonly text: string;
  /** The other attributes, as strings. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** What `parseDocumentContext` reads back from a rendered text: its `<documents>`, and the text around them. */
export interface ParsedDocumentContext {
  readonly documents: readonly ParsedDocument[];
  /** The text outside every `<documents>` block, trimmed. */
  readonly rest: string;
}

/**
 * Renders retrieved documents in the one format every injector uses: a
 * `<documents>` block with one `<document index id title ...>` element per
 * document. Text and attribute values are escaped (`&`, `<`, `>`, and quotes in
 * attributes), so a document containing `</document>` or markup posing as a
 * system message stays inside its element, as data.
 *
 * @example
 * formatDocumentContext([{ id: 'd1', text: 'Paris is in France.', metadata: { title: 'Paris' } }]);
 * // <documents>
 * // <document index="1" id="d1" title="Paris">
 * // Paris is in France.
 * // </document>
 * // </documents>
 */
export function formatDocumentContext(documents: readonly Document[], { metadataKeys = [] }: FormatDocumentContextOptions = {}): string {
  validateDocuments(documents);
  validateMetadataKeys(metadataKeys);
  const keys = ['title', ...metadataKeys.filter((key) => key !== 'title')];
  const elements = documents.map((document, position) => {
    const attributes = [`index="${position + 1}"`, `id="${escapeMarkup(document.id)}"`];
    for (const key of keys) {
      const value = attributeValue(document.metadata[key]);
      if (value !== undefined) attributes.push(`${key}="${escapeMarkup(value)}"`);
    }
    return `<document ${attributes.join(' ')}>\n${escapeMarkup(document.text, false)}\n</document>\n`;
  });
  return `<documents>\n${elements.join('')}</documents>`;
}

/**
 * Reads back every `<documents>` block written by `formatDocumentContext`:
 * the documents with their text unescaped, and the text around the blocks
 * (for example the user's question).
 */
export function parseDocumentContext(text: string): ParsedDocumentContext {
  if (typeof text !== 'string') {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'text', message: `expected a string, got ${typeof text}` });
  }
  const documents: ParsedDocument[] = [];
  const rest = text.replace(BLOCK, (_block, body: string) => {
    for (const [, attributeText, escapedText] of body.matchAll(DOCUMENT)) {
      documents.push(parsedDocument(attributeText, unescapeMarkup(escapedText), documents.length + 1));
    }
    return '';
  });
  return { documents, rest: rest.trim() };
}

function parsedDocument(attributeText: string, text: string, fallbackIndex: number): ParsedDocument {
  const metadata: Record<string, string> = {};
  let index = fallbackIndex;
  let id: string | undefined;
  let title: string | undefined;
  for (const [, name, escapedValue] of attributeText.matchAll(ATTRIBUTE)) {
    const value = unescapeMarkup(escapedValue);
    if (name === 'index' && /^[1-9]\d*$/.test(value)) index = Number(value);
    else if (name === 'id') id = value;
    else if (name === 'title') title = value;
    else if (name !== 'index') metadata[name] = value;
  }
  return { index, id: id ?? String(index), ...(title === undefined ? {} : { title }), text, metadata };
}

/**
 * Escapes text placed between markup delimiters in a prompt (`&`, `<`, `>`),
 * so that it cannot close its delimiter or open a tag of its own. Every
 * injector of untrusted text (documents, remembered turns) uses it.
 */
export function escapePromptText(text: string): string {
  return escapeMarkup(text, false);
}

function escapeMarkup(text: string, escapeQuotes = true): string {
  if (!holdsMarkup(text, escapeQuotes)) return text;
  return text.replace(escapeQuotes ? MARKUP_AND_QUOTES : MARKUP, (character) => ESCAPES[character]);
}

/**
 * Whether `text` holds a character to escape. Most documents hold none, and `indexOf` scans a document more than twice
 * as fast as a regular expression does.
 */
function holdsMarkup(text: string, escapeQuotes: boolean): boolean {
  return (
    text.indexOf('&') !== -1 ||
    text.indexOf('<') !== -1 ||
    text.indexOf('>') !== -1 ||
    (escapeQuotes && (text.indexOf('"') !== -1 || text.indexOf("'") !== -1))
  );
}

function unescapeMarkup(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPES[entity]);
}

function attributeValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

function validateDocuments(documents: unknown): asserts documents is readonly Document[] {
  if (!Array.isArray(documents)) {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'documents', message: 'expected an array of documents' });
  }
  documents.forEach((document: unknown, position) => requireDocument(document, () => `documents[${position}]`));
}

function validateMetadataKeys(metadataKeys: unknown): void {
  if (!Array.isArray(metadataKeys)) {
    throw new AdvisorArgumentError({ component: COMPONENT, argument: 'metadataKeys', message: 'expected an array of metadata keys' });
  }
  for (const key of metadataKeys) {
    if (typeof key !== 'string' || !ATTRIBUTE_NAME.test(key)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'metadataKeys',
        message: `${JSON.stringify(key)} is not a valid attribute name (letters, digits, "_", "-", ".", not starting with a digit)`,
      });
    }
    if (RESERVED_ATTRIBUTES.includes(key)) {
      throw new AdvisorArgumentError({
        component: COMPONENT,
        argument: 'metadataKeys',
        message: `"${key}" is written by the format itself and cannot be a metadata key`,
      });
    }
  }
}
