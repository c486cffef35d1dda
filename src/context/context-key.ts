/**
 * A typed key into the per-request advisor context. The key's `name` is also
 * the field name used when values arrive as plain objects (the chat client's
 * `context` input, or `providerOptions.advisors` through the middleware).
 *
 * @example
 * const TenantId = contextKey<string>('tenantId', { parse: parseNonEmptyString });
 * const audit: Advisor = {
 *   name: 'audit',
 *   before: (request) => {
 *     const tenantId = request.context.require(TenantId, 'audit'); // a non-empty string, or an AdvisorArgumentError
 *     return { ...request, instructions: `${request.instructions ?? ''}\nTenant: ${tenantId}` };
 *   },
 * };
 */
export interface ContextKey<T> {
  readonly name: string;
  /** Validates and narrows a raw value; throws a message describing what is wrong. */
  readonly parse: (value: unknown) => T;
}

/** A typed context key named `name`; `parse` validates raw values (a caller's `context`, `providerOptions.advisors`). */
export function contextKey<T>(name: string, options: { parse?: (value: unknown) => T } = {}): ContextKey<T> {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError('contextKey: name must be a non-empty string');
  }
  return Object.freeze({ name, parse: options.parse ?? ((value: unknown) => value as T) });
}

/** A `parse` for context keys: a string that is not blank, or a `TypeError`. */
export function parseNonEmptyString(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`expected a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/** A short description of an unexpected value for an error message: never the whole value (it may be huge or secret). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string "${value.slice(0, 40)}"`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'symbol') return 'a symbol';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'function' ? 'a function' : 'an object';
}
