import type { ModelMessage } from 'ai';
import type { MemoryEntry, MemoryEntryMetadata } from './memory-entry.ts';
import { deserializeMemoryValue } from './memory-entry-codec.ts';

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
