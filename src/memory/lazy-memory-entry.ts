import type { ModelMessage } from 'ai';
import type { MemoryEntry, MemoryEntryMetadata } from './memory-entry.ts';
import { deserializeMemoryValue, serializeMemoryValue } from './memory-entry-codec.ts';

/**
 * An entry whose message is decoded from `messageText` when first read. A
 * window reads every entry's metadata but keeps only the newest messages, so
 * a huge message older than the window is never decoded.
 */
export function lazyMemoryEntry(messageText: string, metadata: MemoryEntryMetadata): MemoryEntry {
  let message: ModelMessage | undefined;
  return {
    get message() {
      message ??= deserializeMemoryValue(messageText) as ModelMessage;
      return message;
    },
    metadata,
  };
}

/** The metadata a store may keep apart and decode on use: what the page showed and what was retrieved, read by no window. */
export type TurnView = Pick<MemoryEntryMetadata, 'retrieved' | 'ui'>;

const TURN_VIEW_KEYS = ['retrieved', 'ui'] as const;

/** `metadata` without its turn view, and that view (`undefined` when the metadata has none). */
export function splitTurnView(metadata: MemoryEntryMetadata): {
  readonly rest: MemoryEntryMetadata;
  readonly view: TurnView | undefined;
} {
  if (metadata.retrieved === undefined && metadata.ui === undefined) return { rest: metadata, view: undefined };
  const { retrieved, ui, ...rest } = metadata;
  return {
    rest: rest as MemoryEntryMetadata,
    view: { ...(retrieved === undefined ? {} : { retrieved }), ...(ui === undefined ? {} : { ui }) },
  };
}

/**
 * Gives `metadata` (owned by the caller) the keys of the stored turn view, decoded from its text on first use: a window
 * read decodes a few hundred bytes per entry instead of the view's kilobytes (five sources' texts and scores).
 */
export function withLazyTurnView(metadata: MemoryEntryMetadata, { text, keys }: StoredTurnView): MemoryEntryMetadata {
  let view: TurnView | undefined;
  for (const key of keys) {
    Object.defineProperty(metadata, key, {
      enumerable: true,
      configurable: true,
      get: () => (view ??= deserializeMemoryValue(text) as TurnView)[key],
      set: (value: unknown) => Object.defineProperty(metadata, key, { value, enumerable: true, configurable: true, writable: true }),
    });
  }
  return metadata;
}

/** A turn view as a store keeps it: its serialized text and the keys it holds, so a read defines them without parsing it. */
export interface StoredTurnView {
  readonly text: string;
  readonly keys: readonly (keyof TurnView)[];
}

/** Serializes turn views, reusing the last one's text for a view of the same objects: a turn's entries share one. */
export function turnViewSerializer(): (view: TurnView) => StoredTurnView {
  let last: { readonly view: TurnView; readonly stored: StoredTurnView } | undefined;
  return (view) => {
    if (last === undefined || last.view.ui !== view.ui || last.view.retrieved !== view.retrieved) {
      last = { view, stored: { text: serializeMemoryValue(view), keys: TURN_VIEW_KEYS.filter((key) => view[key] !== undefined) } };
    }
    return last.stored;
  };
}

/**
 * Like `turnViewSerializer`, for stores that keep the stored view beside an entry's metadata as JSON text: a turn's
 * entries share one text, made once.
 */
export function turnViewJsonSerializer(): (view: TurnView) => string {
  const serialize = turnViewSerializer();
  let last: { readonly stored: StoredTurnView; readonly json: string } | undefined;
  return (view) => {
    const stored = serialize(view);
    if (last?.stored !== stored) last = { stored, json: JSON.stringify(stored) };
    return last.json;
  };
}
