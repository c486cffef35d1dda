import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { DocumentLimitError } from '../errors/document-limit-error.ts';
import { checkOneOf, checkPositiveInteger } from '../util/check-options.ts';

/**
 * Bounds on what a loader reads from one source and what it produces, so that
 * a small hostile upload (a zip bomb, a PDF listing one page 200,000 times,
 * 10,000 nested lists) fails with a `DocumentLimitError` naming the source and
 * the limit instead of exhausting memory or time. Every loader takes all of
 * them; each applies where its format has the thing it bounds.
 */
export interface DocumentLimits {
  /** Bytes read from the source: a file's size, an upload's length. Default 64 MiB. */
  maxBytes?: number;
  /** Bytes a compressed format may inflate to: the entries of a DOCX, the Flate streams of a PDF (images included). Default 128 MiB. */
  maxDecompressedBytes?: number;
  /** Pages of a PDF, counted before any is extracted. Default 5,000. */
  maxPages?: number;
  /** Nesting of HTML elements (also a DOCX's) and of Markdown quotes and lists, checked by a linear scan before parsing. Default 100. */
  maxNestingDepth?: number;
  /** Characters (UTF-16 code units) of a document's text, and of the HTML or Markdown it is parsed from. Default 16 Mi (16,777,216). */
  maxCharacters?: number;
  /**
   * `throw` (default): a document over a limit fails with a `DocumentLimitError`.
   * `truncate`: text over `maxCharacters` and pages over `maxPages` are cut instead,
   * and the document's metadata says so in `truncated` (`{ limit, max }`); the other
   * limits still throw.
   */
  onLimit?: 'throw' | 'truncate';
}

/** The defaults of `DocumentLimits`. */
export const DEFAULT_DOCUMENT_LIMITS: Readonly<Required<DocumentLimits>> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  maxDecompressedBytes: 128 * 1024 * 1024,
  maxPages: 5_000,
  maxNestingDepth: 100,
  maxCharacters: 16 * 1024 * 1024,
  onLimit: 'throw',
});

export const DOCUMENT_LIMIT_KEYS = ['maxBytes', 'maxDecompressedBytes', 'maxPages', 'maxNestingDepth', 'maxCharacters', 'onLimit'] as const;

/** The longest string V8 can build; a larger `maxCharacters` could only fail later, less clearly. */
const MAX_STRING_LENGTH = 2 ** 29 - 24;

/** The limits of one load, resolved and checked, and the source they are reported for. */
export interface ResolvedLimits extends Readonly<Required<DocumentLimits>> {
  readonly component: string;
  readonly source: string;
}

/** What a loader records when it cut a document under `onLimit: 'truncate'`. */
export interface Truncation {
  readonly limit: 'maxCharacters' | 'maxPages';
  readonly max: number;
}

/** Fills in the defaults and checks each given limit. */
export function resolveLimits(component: string, source: string, limits: DocumentLimits): ResolvedLimits {
  const resolved = { ...DEFAULT_DOCUMENT_LIMITS };
  for (const key of DOCUMENT_LIMIT_KEYS) {
    const value = limits[key];
    if (value === undefined) continue;
    if (key === 'onLimit') resolved.onLimit = checkOneOf(value, ['throw', 'truncate'], { component, argument: key });
    else resolved[key] = checkPositiveInteger(value, { component, argument: key });
  }
  if (resolved.maxCharacters > MAX_STRING_LENGTH) {
    throw new AdvisorArgumentError({
      component,
      argument: 'maxCharacters',
      message: `expected at most ${MAX_STRING_LENGTH.toLocaleString('en')} (the longest string JavaScript can hold), got ${resolved.maxCharacters}`,
    });
  }
  return { ...resolved, component, source };
}

/** The error for `source` exceeding `limit`; `message` says by what, e.g. "has 6,000 pages". */
export function limitError(limits: ResolvedLimits, limit: Exclude<keyof DocumentLimits, 'onLimit'>, message: string): DocumentLimitError {
  return new DocumentLimitError({ component: limits.component, source: limits.source, limit, max: limits[limit], message });
}

/**
 * `text` if it fits `maxCharacters`; else its first `maxCharacters` characters
 * with the truncation to record (`onLimit: 'truncate'`), or a `DocumentLimitError`.
 */
export function limitCharacters(text: string, limits: ResolvedLimits, what = 'text'): { text: string; truncated?: Truncation } {
  if (text.length <= limits.maxCharacters) return { text };
  if (limits.onLimit !== 'truncate') {
    throw limitError(limits, 'maxCharacters', `has ${text.length.toLocaleString('en')} characters of ${what}`);
  }
  const cut = limits.maxCharacters;
  // Never leave half a surrogate pair at the end.
  const end = isHighSurrogate(text.charCodeAt(cut - 1)) ? cut - 1 : cut;
  return { text: text.slice(0, end), truncated: { limit: 'maxCharacters', max: limits.maxCharacters } };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
