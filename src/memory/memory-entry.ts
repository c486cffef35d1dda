import type { ModelMessage } from 'ai';

/** A document retrieved during a turn, recorded in the turn's metadata. */
export interface RetrievedDocumentReference {
  readonly id: string;
  readonly score?: number;
}

/** Metadata of a stored message: its turn's (shared by every message of the turn), and the message's own measure. */
export interface MemoryEntryMetadata {
  /** Identifies the turn; all messages appended together share it. */
  readonly turnId: string;
  readonly createdAt: Date;
  /** The turn was cut short (the stream was aborted); the answer is partial. */
  readonly interrupted?: boolean;
  /** Documents retrieved for the turn (by RAG advisors), with their scores. */
  readonly retrieved?: readonly RetrievedDocumentReference[];
  /**
   * The turn is a new answer to the question of turn `regenerates` (a
   * regeneration): reads leave out that turn and every turn after it up to this one.
   */
  readonly regenerates?: string;
  /** This message's cost to the window (e.g. tokens), measured once when it was appended; see `ChatMemoryWindow.measure`. */
  readonly measure?: { readonly key: string; readonly value: number };
  readonly [key: string]: unknown;
}

/** One stored message and the metadata of the turn it belongs to. */
export interface MemoryEntry {
  readonly message: ModelMessage;
  readonly metadata: MemoryEntryMetadata;
}
