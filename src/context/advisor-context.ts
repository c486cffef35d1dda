import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { ContextKey } from './context-key.ts';

/** What a context is created from: plain values by key name, another context, or nothing. */
export type ContextInit = Readonly<Record<string, unknown>> | AdvisorContext | undefined;

/**
 * Per-request state shared by the advisors of one turn and returned to the
 * caller: typed values (conversation id, per-call filter, topK overrides) and
 * the metadata each advisor exposes under its own name.
 *
 * A context is created per request and never shared between requests, so a
 * chain can serve concurrent requests.
 */
export class AdvisorContext {
  private readonly values: Map<string, unknown>;
  private readonly advisorMetadata: Record<string, Record<string, unknown>> = {};

  constructor(init?: ContextInit) {
    if (init instanceof AdvisorContext) {
      this.values = new Map(init.values);
      for (const [name, data] of Object.entries(init.advisorMetadata)) {
        this.advisorMetadata[name] = { ...data };
      }
    } else if (init === undefined) {
      this.values = new Map();
    } else {
      this.values = new Map();
      for (const key in init) if (Object.hasOwn(init, key) && init[key] !== undefined) this.values.set(key, init[key]);
    }
  }

  /** The value under `key`, validated by the key's parser, or `undefined`. */
  get<T>(key: ContextKey<T>): T | undefined {
    if (!this.values.has(key.name)) return undefined;
    const raw = this.values.get(key.name);
    if (raw === undefined) return undefined;
    return parseValue(key, raw);
  }

  /** The value under `key`; a clear error naming `component` when it is missing. */
  require<T>(key: ContextKey<T>, component: string): T {
    const value = this.get(key);
    if (value === undefined) {
      throw new AdvisorArgumentError({
        component,
        argument: `context.${key.name}`,
        message: `"${key.name}" is required in the request context (pass it in \`context\` or \`providerOptions.advisors\`)`,
      });
    }
    return value;
  }

  /** Whether a value is set for `key`. */
  has(key: ContextKey<unknown>): boolean {
    return this.values.get(key.name) !== undefined;
  }

  /** Sets `key` after validating `value` with the key's `parse`. */
  set<T>(key: ContextKey<T>, value: T): this {
    this.values.set(key.name, parseValue(key, value));
    return this;
  }

  /** Merges `data` into the metadata exposed under `advisorName` on the response. */
  annotate(advisorName: string, data: Readonly<Record<string, unknown>>): void {
    this.advisorMetadata[advisorName] = { ...this.advisorMetadata[advisorName], ...data };
  }

  /**
   * Like `annotate`, each value computed on its first read (a property access, a spread, `JSON.stringify`) and kept
   * from then on: for metadata that takes time to build and is often never read, such as a retrieval trace, so that a
   * turn builds none of it before the model is called. `compute` must read only values that no longer change.
   *
   * @example
   * const context = new AdvisorContext();
   * context.annotateLazily('my-rag', { documents: () => documents.map((document) => ({ id: document.id })) });
   */
  annotateLazily(advisorName: string, computes: Readonly<Record<string, () => unknown>>): void {
    const data: Record<string, unknown> = { ...this.advisorMetadata[advisorName] };
    // The computes ride on the object, out of sight, and every object's getter for a key is the same function: a
    // getter made per call would give each object a shape of its own, which V8 builds anew on every turn.
    Object.defineProperty(data, PENDING, { value: computes, configurable: true });
    for (const key of Object.keys(computes))
      Object.defineProperty(data, key, { enumerable: true, configurable: true, get: lazyGetter(key) });
    this.advisorMetadata[advisorName] = data;
  }

  /** Metadata by advisor name, as it will appear on the response. */
  get metadata(): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
    return this.advisorMetadata;
  }

  /** The raw values by key name (for logging or passthrough). */
  entries(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }
}

/** Where an object made by `annotateLazily` keeps its computes (not enumerable: spreads and JSON do not see it). */
const PENDING = Symbol('pending metadata');
const lazyGetters = new Map<string, (this: Record<PropertyKey, unknown>) => unknown>();
const MAX_LAZY_GETTERS = 1_000;

/** The getter of `key` on every lazily annotated object: computes the value from the object's own computes, once. */
function lazyGetter(key: string): (this: Record<PropertyKey, unknown>) => unknown {
  let getter = lazyGetters.get(key);
  if (getter === undefined) {
    getter = function (this: Record<PropertyKey, unknown>) {
      const value = (this[PENDING] as Readonly<Record<string, () => unknown>>)[key]!();
      Object.defineProperty(this, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    };
    // Keys are names in advisors' code; one made from data (a document id, say) must not grow the cache without end.
    if (lazyGetters.size < MAX_LAZY_GETTERS) lazyGetters.set(key, getter);
  }
  return getter;
}

function parseValue<T>(key: ContextKey<T>, raw: unknown): T {
  try {
    return key.parse(raw);
  } catch (error) {
    throw new AdvisorArgumentError({
      component: 'context',
      argument: key.name,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
