import { isSecretName } from './is-secret-name.ts';
import { REDACTED, redactSecrets } from './redact-secrets.ts';
import { redactValue } from './redact-value.ts';

/** Causes followed; a deeper cause is replaced by a plain error naming its class. */
const MAX_CAUSE_DEPTH = 8;
/** Nesting kept inside a field of an error (a client's request or config object). */
const MAX_FIELD_DEPTH = 6;

/** Options of `redactError`. */
export interface RedactErrorOptions {
  /** Credentials known to the caller (the client's own API key), removed wherever they appear, whatever their shape. */
  readonly secrets?: readonly (string | undefined)[];
}

/**
 * A copy of `value` safe to keep as an error's `cause`: an error keeps its
 * prototype (so `instanceof` holds) and its symbol-keyed markers (so
 * `APICallError.isInstance` and `AdvisorError.isInstance` hold), with its
 * message, stack, fields and whole cause chain (`AggregateError#errors`
 * too) redacted. Fields under credential names become `[REDACTED]`; plain
 * objects and arrays (a client's `config`, `request`, `requestBodyValues`)
 * are copied with the same rules; `Headers` stay `Headers` with credential
 * headers masked; any other object (a socket, a `Response`, a client) is
 * replaced by a redacted JSON snapshot, since it may hold the key in a
 * field no rule can name. Errors from the Qdrant, Cohere, `pg` and Redis
 * clients keep their `status`, `code`, `data` and the like, minus keys.
 */
export function redactError(value: unknown, options: RedactErrorOptions = {}): unknown {
  // Shorter strings would be cut out of ordinary words.
  const known = (options.secrets ?? []).filter((secret): secret is string => typeof secret === 'string' && secret.length >= 8);
  const text =
    known.length === 0
      ? redactSecrets
      : (raw: string) => redactSecrets(known.reduce((result, secret) => result.split(secret).join(REDACTED), raw));
  try {
    return copyCause(value, 0, { copies: new Map(), text });
  } catch {
    // A hostile proxy in the chain: keep the class's name and nothing that could hold a secret.
    return new Error(`[${value instanceof Error ? safeText(() => value.name) : typeof value}: message withheld]`);
  }
}

/** The copies made so far (for cycles and shared objects), and how text is redacted. */
interface Walk {
  readonly copies: Map<object, unknown>;
  readonly text: (raw: string) => string;
}

function copyCause(value: unknown, depth: number, walk: Walk): unknown {
  const { copies } = walk;
  if (!(value instanceof Error)) return copyField(value, 0, walk);
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (depth > MAX_CAUSE_DEPTH) return new Error(`[${safeText(() => value.name)}: cause chain cut]`);

  // A DOMException's getters need the real object's internal slots: its copy is a plain error with its fields.
  const prototype = typeof DOMException !== 'undefined' && value instanceof DOMException ? Error.prototype : Object.getPrototypeOf(value);
  const copy = Object.create(prototype as object) as Error;
  if (prototype === Error.prototype && value instanceof DOMException) {
    Object.defineProperty(copy, 'name', { value: value.name, writable: true, configurable: true });
    Object.defineProperty(copy, 'message', { value: walk.text(value.message), writable: true, configurable: true });
  }
  copies.set(value, copy);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key)!;
    const read = () => ('value' in descriptor ? descriptor.value : descriptor.get?.call(value));
    let field: unknown;
    try {
      field =
        typeof key === 'symbol'
          ? markerOrNothing(read())
          : key === 'cause'
            ? copyCause(read(), depth + 1, walk)
            : key === 'errors' && Array.isArray(read())
              ? (read() as unknown[]).map((item) => copyCause(item, depth + 1, walk))
              : key === 'message' || key === 'stack'
                ? walk.text(String(read()))
                : isSecretName(key)
                  ? REDACTED
                  : copyField(read(), 0, walk);
    } catch {
      field = '[Unreadable]';
    }
    Object.defineProperty(copy, key, {
      value: field,
      enumerable: descriptor.enumerable ?? false,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** Symbol-keyed fields are class markers (`true`) or private state; only primitives are kept. */
function markerOrNothing(value: unknown): unknown {
  return value === null || (typeof value !== 'object' && typeof value !== 'function') ? value : undefined;
}

function copyField(value: unknown, depth: number, walk: Walk): unknown {
  const { copies, text } = walk;
  if (typeof value === 'string') return text(value);
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (value instanceof Error) return copyCause(value, depth, walk);
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (depth >= MAX_FIELD_DEPTH) return Array.isArray(value) ? '[Array]' : '[Object]';
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    const headers = new Headers();
    for (const [name, item] of value) headers.append(name, isSecretName(name) ? REDACTED : text(item));
    return headers;
  }
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(copyField(item, depth + 1, walk));
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    return redactValue(value, { maxDepth: MAX_FIELD_DEPTH - depth, redactText: text });
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const key of Object.keys(value)) {
    try {
      copy[key] = isSecretName(key) ? REDACTED : copyField((value as Record<string, unknown>)[key], depth + 1, walk);
    } catch {
      copy[key] = '[Unreadable]';
    }
  }
  return copy;
}

function safeText(read: () => unknown): string {
  try {
    return redactSecrets(String(read()));
  } catch {
    return 'Error';
  }
}
