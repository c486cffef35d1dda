import { checkChatMemory, checkFiniteNumber, checkNonEmptyString, describeValue } from '../../src/extension/index.ts';
import { AdvisorArgumentError, type ChatMemory } from '../../src/index.ts';
import { validateAbortPolicy, type AbortPolicy } from './turn-to-store.ts';

/** Options shared by the message and prompt memory advisors. */
export interface ChatMemoryAdvisorOptions {
  readonly memory: ChatMemory;
  /** Default: the advisor's kind (`message-memory`, `prompt-memory`). */
  readonly name?: string;
  /** Default -100: outside RAG advisors (order 0 and up), so they run inside memory. */
  readonly order?: number;
  /** What to store when the turn is aborted. Default `store-interrupted`. */
  readonly onAbort?: AbortPolicy;
}

export function validateMemoryAdvisorOptions(options: ChatMemoryAdvisorOptions, defaultName: string): Required<ChatMemoryAdvisorOptions> {
  if (options === null || typeof options !== 'object') {
    throw new AdvisorArgumentError({
      component: defaultName,
      argument: 'options',
      message: `expected an options object, got ${describeValue(options)}`,
    });
  }
  const { memory, name = defaultName, order = -100, onAbort = 'store-interrupted' } = options;
  validateAdvisorIdentity(name, order, defaultName);
  checkChatMemory(memory, { component: name, argument: 'memory' });
  return { memory, name, order, onAbort: validateAbortPolicy(onAbort, name) };
}

export function validateAdvisorIdentity(name: unknown, order: unknown, component: string): void {
  checkNonEmptyString(name, { component, argument: 'name' });
  checkFiniteNumber(order, { component, argument: 'order' });
}
