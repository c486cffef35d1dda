import type { ModelMessage } from 'ai';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkOptions } from '../util/check-options.ts';
import { countMessageTokens } from './count-message-tokens.ts';
import { messageParts, type MessagePart } from './message-parts.ts';
import { createGptTokenizer, type Tokenizer } from './tokenizer.ts';

/** A message role, as `startOn` and `endOn` name it. */
export type MessageRole = ModelMessage['role'];

/** Options of `trimMessages`. */
export interface TrimMessagesOptions {
  /** Most tokens the trimmed messages may count together. */
  readonly maxTokens: number;
  /** Keep the `first` messages or the `last` ones (default): the oldest or the newest. */
  readonly strategy?: 'first' | 'last';
  /**
   * How a message is counted: a `Tokenizer` (counted as `countMessageTokens`
   * does, framing and files included) or a function of one message.
   * Default `createGptTokenizer()` (o200k_base).
   */
  readonly tokenCounter?: Tokenizer | ((message: ModelMessage) => number);
  /**
   * Cut the first message that does not fit, when its content is text only:
   * its last text parts are dropped, or, when not one part fits, the last
   * pieces (`textSplitter`: lines) of its first part; with strategy `last`,
   * its first ones. Default false: whole messages only.
   */
  readonly allowPartial?: boolean;
  /** With strategy `last`: drop messages from the start until one has this role (or one of these), e.g. `user`. */
  readonly startOn?: MessageRole | readonly MessageRole[];
  /** Drop messages from the end until one has this role (or one of these), applied before `last` trims, after `first` does. */
  readonly endOn?: MessageRole | readonly MessageRole[];
  /** With strategy `last`: keep a leading system message, counted against `maxTokens`. Default false. */
  readonly includeSystem?: boolean;
  /** How `allowPartial` cuts a text into pieces that are kept or dropped whole. Default: into lines. */
  readonly textSplitter?: (text: string) => string[];
}

const COMPONENT = 'trim-messages';

/**
 * Trims a history to `maxTokens` (LangChain's `trimMessages`): keeps the
 * newest (`strategy: 'last'`, default) or the oldest (`'first'`) messages
 * that fit, optionally cutting the next one to fill the budget
 * (`allowPartial`), starting on and ending on given roles, and keeping the
 * system message (`includeSystem`). A tool call and its result are never
 * separated: an assistant message with its tool messages is kept or dropped
 * whole, and never cut. The input is not modified.
 *
 * @example
 * const history = await trimMessages(modelMessages, { maxTokens: 4_000, startOn: 'user', includeSystem: true });
 */
export async function trimMessages(messages: readonly ModelMessage[], options: TrimMessagesOptions): Promise<ModelMessage[]> {
  if (!Array.isArray(messages)) throw invalid('messages', 'expected an array of ModelMessage');
  const { maxTokens, strategy, allowPartial, startOn, endOn, includeSystem, count, splitText } = await validate(options);
  const units = groupIntoUnits(messages);
  if (strategy === 'first') {
    const kept = keepFitting(units, maxTokens, { count, allowPartial, fromEnd: false, splitText });
    return dropUntil(kept, endOn, 'end').flat();
  }
  const system = includeSystem && messages[0]?.role === 'system' ? messages[0] : undefined;
  const rest = dropUntil(system === undefined ? units : groupIntoUnits(messages.slice(1)), endOn, 'end');
  const budget = maxTokens - (system === undefined ? 0 : count(system));
  const kept = keepFitting([...rest].reverse(), budget, { count, allowPartial, fromEnd: true, splitText }).reverse();
  return [...(system === undefined ? [] : [system]), ...dropUntil(kept, startOn, 'start').flat()];
}

type Unit = readonly ModelMessage[];

/** Each message with the tool messages right after it, so a tool call stays with its results. */
function groupIntoUnits(messages: readonly ModelMessage[]): Unit[] {
  const units: ModelMessage[][] = [];
  for (const message of messages) {
    const previous = units.at(-1);
    if (message.role === 'tool' && previous !== undefined && previous[0].role === 'assistant') previous.push(message);
    else units.push([message]);
  }
  return units;
}

/** The leading units that fit in `budget`, then the next one cut to fit when allowed. */
function keepFitting(units: readonly Unit[], budget: number, { allowPartial, ...cut }: CutOptions & { allowPartial: boolean }): Unit[] {
  const { count } = cut;
  const kept: Unit[] = [];
  let used = 0;
  for (const unit of units) {
    const cost = unit.reduce((sum, message) => sum + count(message), 0);
    if (used + cost <= budget) {
      kept.push(unit);
      used += cost;
      continue;
    }
    const partial = allowPartial && unit.length === 1 ? cutToFit(unit[0], budget - used, cut) : undefined;
    if (partial !== undefined) kept.push([partial]);
    break;
  }
  return kept;
}

/**
 * The largest part of a text-only message that fits, keeping its start (or
 * its end, `fromEnd`): whole text parts first; when not even one part fits,
 * the pieces `splitText` cuts that part's text into. Undefined if nothing fits.
 */
function cutToFit(message: ModelMessage, budget: number, { count, fromEnd, splitText }: CutOptions): ModelMessage | undefined {
  const parts = messageParts(message);
  if (parts.length === 0 || parts.some((part) => part.type !== 'text')) return undefined;
  const keep = <T>(items: readonly T[], size: number) => (fromEnd ? items.slice(items.length - size) : items.slice(0, size));
  const withParts = (kept: readonly MessagePart[]) => ({ ...message, content: kept }) as ModelMessage;
  const byParts = largestFitting(parts.length - 1, (size) => withParts(keep(parts, size)), count, budget);
  if (byParts !== undefined) return byParts;
  const part = fromEnd ? parts[parts.length - 1] : parts[0];
  const pieces = splitText(String(part.text));
  const withText = (text: string) =>
    typeof message.content === 'string' ? ({ ...message, content: text } as ModelMessage) : withParts([{ ...part, text }]);
  return largestFitting(pieces.length - 1, (size) => withText(keep(pieces, size).join('')), count, budget);
}

interface CutOptions {
  readonly count: (message: ModelMessage) => number;
  readonly fromEnd: boolean;
  readonly splitText: (text: string) => string[];
}

/**
 * The candidate of the largest size from 1 to `most` that fits `budget`, found
 * by binary search (a larger part never counts fewer tokens), so a long
 * message is counted O(log n) times, not once per line.
 */
function largestFitting(
  most: number,
  candidate: (size: number) => ModelMessage,
  count: (message: ModelMessage) => number,
  budget: number,
): ModelMessage | undefined {
  let best: ModelMessage | undefined;
  let low = 1;
  let high = most;
  while (low <= high) {
    const size = Math.floor((low + high) / 2);
    const cut = candidate(size);
    if (count(cut) <= budget) {
      best = cut;
      low = size + 1;
    } else high = size - 1;
  }
  return best;
}

/** Lines with their line breaks, so that joining them gives the text back (LangChain's default text splitter). */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  return lines.map((line, index) => (index < lines.length - 1 ? `${line}\n` : line)).filter((line) => line !== '');
}

/** Drops units from the `start` (or `end`) until the message at that edge has one of `roles`. */
function dropUntil(units: readonly Unit[], roles: readonly MessageRole[] | undefined, edge: 'start' | 'end'): Unit[] {
  const kept = [...units];
  if (roles === undefined) return kept;
  if (edge === 'start') while (kept.length > 0 && !roles.includes(kept[0][0].role)) kept.shift();
  else while (kept.length > 0 && !roles.includes(kept[kept.length - 1].at(-1)!.role)) kept.pop();
  return kept;
}

const ROLES: readonly MessageRole[] = ['system', 'user', 'assistant', 'tool'];

async function validate(options: TrimMessagesOptions) {
  checkOptions(options, {
    component: COMPONENT,
    known: ['maxTokens', 'strategy', 'tokenCounter', 'allowPartial', 'startOn', 'endOn', 'includeSystem', 'textSplitter'],
  });
  const {
    maxTokens,
    strategy = 'last',
    tokenCounter = createGptTokenizer(),
    allowPartial = false,
    includeSystem = false,
    textSplitter: splitText = splitLines,
  } = options;
  if (typeof splitText !== 'function') throw invalid('textSplitter', 'expected a function (text) => string[]');
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 0)
    throw invalid('maxTokens', `expected a non-negative integer, got ${describeValue(maxTokens)}`);
  if (strategy !== 'first' && strategy !== 'last') throw invalid('strategy', `expected 'first' or 'last', got ${describeValue(strategy)}`);
  for (const [argument, value] of Object.entries({ allowPartial, includeSystem })) {
    if (typeof value !== 'boolean') throw invalid(argument, `expected a boolean, got ${describeValue(value)}`);
  }
  const startOn = roles('startOn', options.startOn);
  const endOn = roles('endOn', options.endOn);
  if (strategy === 'first' && (startOn !== undefined || includeSystem)) {
    throw invalid(startOn !== undefined ? 'startOn' : 'includeSystem', "applies only with strategy 'last'");
  }
  let count: (message: ModelMessage) => number;
  if (typeof tokenCounter === 'function') count = tokenCounter;
  else if (tokenCounter !== null && typeof tokenCounter === 'object' && typeof tokenCounter.countTokens === 'function') {
    await tokenCounter.load?.();
    count = (message) => countMessageTokens(message, tokenCounter);
  } else throw invalid('tokenCounter', 'expected a Tokenizer or a function (message) => number');
  return { maxTokens, strategy, allowPartial, startOn, endOn, includeSystem, count, splitText };
}

function roles(argument: string, value: MessageRole | readonly MessageRole[] | undefined): readonly MessageRole[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((role) => ROLES.includes(role))) {
    throw invalid(argument, `expected a role or a non-empty array of roles (${ROLES.join(', ')}), got ${describeValue(value)}`);
  }
  return list;
}

function invalid(argument: string, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component: COMPONENT, argument, message });
}
