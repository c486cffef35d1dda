import { inspect } from 'node:util';
import { redactSecrets } from './redact-secrets.ts';
import { redactValue } from './redact-value.ts';

/** Causes followed; deeper ones are cut, as `util.inspect` would at its default depth anyway. */
const MAX_CAUSE_DEPTH = 8;
/** Matches `util.inspect`'s own default `maxStringLength`. */
const MAX_FIELD_LENGTH = 10_000;

/**
 * A copy of `error` for `util.inspect` (and so `console.log`) to print: same
 * class, name and stack shape, but the message, stack, fields and the whole
 * `cause` chain (and `AggregateError#errors`) with credentials redacted.
 * Provider errors echo keys in their `responseBody` or `url`, and client errors
 * keep the request headers; the view shows neither, while the original error
 * and its causes stay untouched for `isInstance` checks.
 */
export function redactedErrorView(error: unknown): unknown {
  try {
    return view(error, 0, new Set());
  } catch {
    // A hostile getter or proxy in the chain: print the class and nothing that could hold a secret.
    return `[${error instanceof Error ? safeName(error) : typeof error}: message withheld]`;
  }
}

function safeName(error: Error): string {
  try {
    return redactSecrets(String(error.name));
  } catch {
    return 'Error';
  }
}

/** `ancestors` holds the errors on the path from the top, so only a real cycle prints as `[Circular]`. */
function view(value: unknown, depth: number, ancestors: Set<unknown>): unknown {
  if (!(value instanceof Error)) return redactValue(value, { maxDepth: 6, maxStringLength: MAX_FIELD_LENGTH });
  if (ancestors.has(value)) return '[Circular]';
  if (depth > MAX_CAUSE_DEPTH) return `[${safeName(value)}]`;
  ancestors.add(value);

  const copy = sameClassError(value, redactSecrets(String(value.message)));
  hide(copy, 'stack', typeof value.stack === 'string' ? redactSecrets(value.stack) : undefined);
  // The copy must print as a plain error, not call back into a redacting inspect of its class.
  hide(copy, inspect.custom, undefined);
  const fields = redactValue(ownFields(value), { maxDepth: 6, maxStringLength: MAX_FIELD_LENGTH }) as Record<string, unknown>;
  Object.assign(copy, fields, { name: redactSecrets(String(value.name)) });
  if (value.cause !== undefined) hide(copy, 'cause', view(value.cause, depth + 1, ancestors));
  const { errors } = value as { errors?: unknown };
  if (Array.isArray(errors))
    hide(
      copy,
      'errors',
      errors.map((item) => view(item, depth + 1, ancestors)),
    );
  ancestors.delete(value);
  return copy;
}

/** An error object of `error`'s class built without running its constructor, so its message can be replaced. */
function sameClassError(error: Error, message: string): Error {
  try {
    return Reflect.construct(Error, [message], error.constructor) as Error;
  } catch {
    return new Error(message);
  }
}

/** The error's own fields except those the copy sets itself; a field whose getter throws is shown as such. */
function ownFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(error)) {
    if (key === 'name' || key === 'message' || key === 'stack' || key === 'cause') continue;
    try {
      fields[key] = (error as unknown as Record<string, unknown>)[key];
    } catch {
      fields[key] = '[Unreadable]';
    }
  }
  return fields;
}

function hide(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, writable: true, configurable: true });
}
