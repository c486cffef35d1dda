import type { ModelMessage } from 'ai';

/** A document retrieved during a turn, recorded in the turn's metadata. */
export interface RetrievedDocumentReference {
  readonly id: string;
  readonly score?: number;
}

/** Metadata shared by every message of one stored turn. */
export interface MemoryEntryMetadata {
  /** Identifies the turn; all messages appended together share it. */
  readonly turnId: string;
  readonly createdAt: Date;
  /** The turn was cut short (the stream was aborted); the answer is partial. */
  readonly interrupted?: boolean;
  /** Documents retrieved for the turn (by RAG advisors), with their scores. */
  readonly retrieved?: readonly RetrievedDocumentReference[];
  readonly [key: string]: unknown;
}

/** One stored message and the metadata of the turn it belongs to. */
export interface MemoryEntry {
  readonly message: ModelMessage;
  readonly metadata: MemoryEntryMetadata;
}
