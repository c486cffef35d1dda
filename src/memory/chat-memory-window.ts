import type { ModelMessage } from 'ai';

/**
 * Decides how much of a conversation is sent to the model. Applied on read:
 * stored history is never destroyed. Chat memory offers the window whole
 * eviction units (turns, with tool calls and their results together) from the
 * newest back, and stops at the first one that does not fit.
 */
export interface ChatMemoryWindow {
  readonly name: string;
  /**
   * The most conversation entries the window can ever keep (`Infinity` when
   * unbounded). Reads fetch at most this many plus one, so a windowed read
   * costs O(window), not O(history).
   */
  readonly maxEntries: number;
  /**
   * What the window costs a message (e.g. its tokens), when that takes work.
   * Chat memory measures each message once, when it is appended, stores the
   * value with it under `key`, and hands it back on every read, so a long
   * message is never counted again. `key` names the measure (tokenizer and
   * settings): a value stored under another key is not used.
   */
  readonly measure?: WindowMeasure;
  /** Starts selecting for one read. The system message is always kept; it may count against the budget. */
  start(system: ModelMessage | undefined): Promise<WindowSelection>;
}

/** How a window measures a message (e.g. its tokens), so that stores can keep the measure with it. */
export interface WindowMeasure {
  readonly key: string;
  /**
   * The most the messages the window keeps can measure together (its token
   * budget). A window keeps the newest messages, so a read stops at the
   * newest message whose stored measure takes the total past this: it and
   * everything older are never decoded, however large they are.
   */
  readonly budget?: number;
  /** Prepares `count` (e.g. loads a tokenizer); called before the first count. */
  load?(): Promise<void>;
  /** The message's cost to the window (e.g. its tokens). */
  count(message: ModelMessage): number;
}

/** One read's selection by a window: offered the newest entries first, it says which to keep. */
export interface WindowSelection {
  /**
   * Takes the unit and returns true if it fits in what is left; returns false
   * (taking nothing) otherwise. `measured` holds each message's stored measure,
   * where one was stored under the window's key.
   */
  tryAdd(unit: readonly ModelMessage[], measured?: readonly (number | undefined)[]): boolean;
}
