import { isSecretName } from './is-secret-name.ts';
import { REDACTED, redactSecrets } from './redact-secrets.ts';

/** A JSON value, as `redactValue` returns it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Options of `redactValue`: how far values are cut, and how text is redacted. */
export interface RedactValueOptions {
  /** Nesting kept; deeper objects and arrays become `'[Object]'` / `'[Array]'`. Default 20, at most 100. */
  readonly maxDepth?: number;
  /** Longest string kept, in characters; longer ones are cut and end in `…`. Default: no limit. */
  readonly maxStringLength?: number;
  /** Array items kept; the rest are counted in a last `'… N more'` item. Default: no limit. */
  readonly maxArrayLength?: number;
  /** Object keys kept; the rest are counted under a `'…'` key. Default: no limit. */
  readonly maxKeys?: number;
  /** Applied to every string after the built-in secret redaction (e.g. to mask personal data). */
  readonly redactText?: (text: string) => string;
}

const DEPTH_CEILING = 100;
/**
 * How far past `maxStringLength` a string is redacted before it is cut, so a
 * credential straddling the cut is still recognised whole (JWTs and PEM keys run to a few KB).
 */
const REDACTION_MARGIN = 4096;

/**
 * A JSON-safe copy of `value` with credentials removed: values under
 * credential names (`apiKey`, `x-api-key`, `clientSecret`, `dbPassword`, ...)
 * become `[REDACTED]`, and every string goes through `redactSecrets`. Strings,
 * arrays, keys and depth are cut structurally, so the result always
 * serialises to valid JSON. Cycles become `'[Circular]'`, BigInts strings,
 * errors `{ name, message, ...fields, cause }`, and a getter that throws
 * `'[Unreadable]'`. It never throws (a string whose `redactText` throws is
 * withheld as `[REDACTED]`), so it is safe on logging and error paths.
 */
export function redactValue(value: unknown, options: RedactValueOptions = {}): JsonValue {
  const limits = {
    maxDepth: Math.min(limit(options.maxDepth, 20), DEPTH_CEILING),
    maxStringLength: limit(options.maxStringLength, Infinity),
    maxArrayLength: limit(options.maxArrayLength, Infinity),
    maxKeys: limit(options.maxKeys, Infinity),
  };
  const redactText = options.redactText;
  const ancestors = new Set<object>();

  const text = (raw: string): string => {
    const window = raw.length > limits.maxStringLength + REDACTION_MARGIN ? raw.slice(0, limits.maxStringLength + REDACTION_MARGIN) : raw;
    const redacted = redactText ? customRedaction(redactText, redactSecrets(window)) : redactSecrets(window);
    return redacted.length > limits.maxStringLength || window.length < raw.length
      ? `${redacted.slice(0, limits.maxStringLength)}…`
      : redacted;
  };

  const walk = (current: unknown, depth: number): JsonValue | undefined => {
    if (current === UNREADABLE) return '[Unreadable]';
    switch (typeof current) {
      case 'string':
        return text(current);
      case 'number':
        return Number.isFinite(current) ? current : String(current);
      case 'boolean':
        return current;
      case 'bigint':
        return current.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (current === null) return null;
    const object = current as object;
    if (ancestors.has(object)) return '[Circular]';
    if (depth >= limits.maxDepth) return Array.isArray(object) ? '[Array]' : '[Object]';
    ancestors.add(object);
    try {
      return walkObject(object, depth + 1);
    } catch {
      return '[Unreadable]';
    } finally {
      ancestors.delete(object);
    }
  };

  const walkObject = (object: object, depth: number): JsonValue | undefined => {
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? String(object) : object.toISOString();
    if (ArrayBuffer.isView(object)) return `[${object.constructor.name} ${object.byteLength} bytes]`;
    if (Array.isArray(object)) return walkArray(object.slice(0, limits.maxArrayLength), object.length, depth);
    if (object instanceof Set) return walkArray([...object].slice(0, limits.maxArrayLength), object.size, depth);
    if (object instanceof Map)
      return walkEntries(
        [...object].map(([key, item]) => [String(key), () => item]),
        depth,
      );
    if (typeof Headers !== 'undefined' && object instanceof Headers)
      return walkEntries(
        [...object].map(([key, item]) => [key, () => item]),
        depth,
      );
    if (object instanceof Error) return walkEntries(errorEntries(object), depth);
    const toJSON = read(() => (object as { toJSON?: unknown }).toJSON);
    if (typeof toJSON === 'function')
      return walk(
        read(() => toJSON.call(object)),
        depth,
      );
    return walkEntries(
      Object.keys(object).map((key) => [key, () => (object as Record<string, unknown>)[key]]),
      depth,
    );
  };

  const walkArray = (items: readonly unknown[], length: number, depth: number): JsonValue[] => {
    const kept = items.map((item) => walk(item, depth) ?? null);
    if (length > kept.length) kept.push(`… ${length - kept.length} more`);
    return kept;
  };

  const walkEntries = (entries: readonly (readonly [string, () => unknown])[], depth: number): Record<string, JsonValue> => {
    const copy: Record<string, JsonValue> = {};
    for (const [key, get] of entries.slice(0, limits.maxKeys)) {
      const raw = read(get);
      const item = raw === undefined ? undefined : isSecretName(key) ? REDACTED : walk(raw, depth);
      if (item !== undefined) copy[key] = item;
    }
    if (entries.length > limits.maxKeys) copy['…'] = `${entries.length - limits.maxKeys} more keys`;
    return copy;
  };

  return walk(value, 0) ?? null;
}

/** An error's name, message, own fields, cause and (for an `AggregateError`) errors, in that order. */
function errorEntries(error: Error): [string, () => unknown][] {
  const fields = Object.keys(error).filter((key) => key !== 'name' && key !== 'message' && key !== 'cause' && key !== 'errors');
  return [
    ['name', () => error.name],
    ['message', () => error.message],
    ...fields.map((key): [string, () => unknown] => [key, () => (error as unknown as Record<string, unknown>)[key]]),
    ['cause', () => error.cause],
    ['errors', () => (error as { errors?: unknown }).errors],
  ];
}

const UNREADABLE = Symbol('unreadable');

/** Reads a property that may be a throwing getter or a hostile proxy trap. */
function read(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return UNREADABLE;
  }
}

function customRedaction(redactText: (text: string) => string, text: string): string {
  try {
    const redacted = redactText(text);
    return typeof redacted === 'string' ? redacted : REDACTED;
  } catch {
    return REDACTED;
  }
}

function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && value >= 0 && !Number.isNaN(value) ? Math.floor(value) : fallback;
}
