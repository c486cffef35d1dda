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
  /** Starts selecting for one read. The system message is always kept; it may count against the budget. */
  start(system: ModelMessage | undefined): Promise<WindowSelection>;
}

export interface WindowSelection {
  /** Takes the unit and returns true if it fits in what is left; returns false (taking nothing) otherwise. */
  tryAdd(unit: readonly ModelMessage[]): boolean;
}
