import { createHash } from 'node:crypto';
import type { FilterExpression } from './filter-expression.ts';

/**
 * A short, stable name of a store's required filter: the SHA-256 of the
 * filter tree written with sorted keys, so `eq('tenant', 'a')` and
 * `parseFilter("tenant == 'a'")` name the same scope. Stores key a document by
 * its scope and id, so two tenants may each hold a document with id `x` and
 * neither can tell, by writing or deleting `x`, whether the other has one.
 */
export function filterScope(filter: FilterExpression): string {
  return createHash('sha256').update(stableJson(filter)).digest('hex').slice(0, 32);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
