/**
 * Turns text into the terms a lexical index stores and a query matches.
 * The same analyzer must be used for documents and queries.
 *
 * @example
 * import type { Analyzer } from 'ai-advisors/retrieval';
 * const shout: Analyzer = (text) => text.toUpperCase().split(/\s+/).filter(Boolean);
 */
export type Analyzer = (text: string) => string[];
