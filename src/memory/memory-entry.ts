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
  /** The model failed during the turn (an error mid-stream); the answer is what it streamed before. A retry replaces the turn. */
  readonly failed?: boolean;
  /** Documents retrieved for the turn (by RAG advisors), with their scores. */
  readonly retrieved?: readonly RetrievedDocumentReference[];
  /** What the page showed of the turn besides its messages, so that `toUIMessages` restores it as it was streamed. */
  readonly ui?: StoredTurnView;
  /**
   * The turn is a new answer to the question of turn `regenerates` (a
   * regeneration): reads leave out that turn and every turn after it up to this one.
   */
  readonly regenerates?: string;
  /**
   * The turn this one replaced, whose entries the store removed when it stored this one: what `regenerates` becomes
   * once the store has left nothing for reads to leave out. A later regeneration of that turn finds this one by it.
   */
  readonly replaced?: string;
  /** This message's cost to the window (e.g. tokens), measured once when it was appended; see `ChatMemoryWindow.measure`. */
  readonly measure?: { readonly key: string; readonly value: number };
  readonly [key: string]: unknown;
}

/** A source the turn streamed to the page (`source` stream part), as stored with the turn. */
export type StoredSource =
  | {
      readonly sourceType: 'url';
      readonly id: string;
      readonly url: string;
      readonly title?: string;
      readonly providerMetadata?: Record<string, unknown>;
    }
  | {
      readonly sourceType: 'document';
      readonly id: string;
      readonly mediaType: string;
      readonly title: string;
      readonly filename?: string;
      readonly providerMetadata?: Record<string, unknown>;
    };

/** The sources and message metadata a turn sent to the page (`UIMessageMetadata`). */
export interface StoredTurnView {
  readonly sources?: readonly StoredSource[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** One stored message and the metadata of the turn it belongs to. */
export interface MemoryEntry {
  readonly message: ModelMessage;
  readonly metadata: MemoryEntryMetadata;
}
