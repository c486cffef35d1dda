import { createHash } from 'node:crypto';

/** The part of a `pg` query config that says which statement to run. */
export interface Statement {
  readonly name?: string;
  readonly text: string;
}

/**
 * A statement `pg` runs as a named prepared statement when `prepared`: parsed
 * and planned once per connection instead of on every call. The name comes
 * from the text, so stores over other tables (other texts) never share one.
 */
export function statement(text: string, { prepared }: { prepared: boolean }): Statement {
  return prepared ? { name: statementName(text), text } : { text };
}

/** The prepared statement name of `text`: texts that differ get names that differ. */
export function statementName(text: string): string {
  return `ai_advisors_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}
