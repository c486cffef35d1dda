import { convertToModelMessages, modelMessageSchema, safeValidateUIMessages, type ModelMessage, type ToolSet, type UIMessage } from 'ai';
import { lastUserMessageIndex } from '../chain/request-text.ts';
import { describeValue } from '../context/context-key.ts';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { checkNesting } from '../util/check-nesting.ts';
import { checkInputSize, checkPromptSize, type InputLimits } from './input-limits.ts';
import { areValidatedUIMessages } from './validated-ui-messages.ts';

/** The messages a turn takes: AI SDK `ModelMessage`s, or the `UIMessage`s `useChat` sends. */
export type ChatMessages = readonly ModelMessage[] | readonly UIMessage[];

export interface PromptInput {
  readonly prompt?: string;
  readonly messages?: ChatMessages;
}

const UI_ROLES = new Set(['system', 'user', 'assistant']);
const MAX_UI_MESSAGE_ID_LENGTH = 512;

/**
 * Checks `prompt`/`messages` synchronously, so a bad call fails before any
 * advisor or model runs: shapes, roles, nesting depth and sizes. Returns a
 * function that produces the model messages; for UI messages it first runs
 * the AI SDK's full `UIMessage` validation (asynchronous), whose failure is
 * an `AdvisorArgumentError` too.
 */
export function checkPromptInput(
  input: PromptInput,
  {
    component,
    limits,
    allowSystemInMessages,
  }: { component: string; limits: Required<InputLimits>; allowSystemInMessages: boolean | undefined },
): (tools: ToolSet | undefined) => Promise<ModelMessage[]> {
  const { prompt, messages } = input;
  if (prompt !== undefined && messages !== undefined) {
    throw new AdvisorArgumentError({ component, argument: 'prompt', message: 'pass either `prompt` or `messages`, not both' });
  }
  if (prompt === undefined && messages === undefined) {
    throw new AdvisorArgumentError({ component, argument: 'messages', message: 'pass `prompt` (a string) or `messages`' });
  }
  if (prompt !== undefined) {
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new AdvisorArgumentError({ component, argument: 'prompt', message: 'expected a non-empty string' });
    }
    checkPromptSize(prompt, { component, limits });
    const userMessage: ModelMessage = { role: 'user', content: prompt };
    return async () => [userMessage];
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new AdvisorArgumentError({ component, argument: 'messages', message: 'expected a non-empty array of messages' });
  }
  // Messages chatRoute validated had their nesting checked there, with the same limit.
  const validatedByRoute = areValidatedUIMessages(messages);
  if (!validatedByRoute) checkNesting(messages, { component, argument: 'messages' });
  const uiMessages = isUIMessage(messages[0]);
  messages.forEach((message: unknown, index) => {
    if (uiMessages) checkUIMessage(message, index, component);
    else checkModelMessage(message, index, component);
    if ((message as { role: string }).role === 'system' && allowSystemInMessages !== true) {
      throw new AdvisorArgumentError({
        component,
        argument: `messages[${index}]`,
        message:
          'system messages are not allowed in `messages` (AI SDK 7 rule): pass system text as `instructions`, or set `allowSystemInMessages: true`',
      });
    }
  });
  checkInputSize(messages, { component, argument: 'messages', limits });
  if (uiMessages) {
    return async (tools) => {
      if (validatedByRoute) return convertToModelMessages(messages as UIMessage[], { tools });
      const validated = await safeValidateUIMessages({ messages: [...messages] });
      if (!validated.success) {
        throw new AdvisorArgumentError({ component, argument: 'messages', message: `not valid UIMessages: ${validated.error.message}` });
      }
      return convertToModelMessages(validated.data, { tools });
    };
  }
  const modelMessages = [...(messages as readonly ModelMessage[])];
  return async () => modelMessages;
}

/** `useChat` sends `UIMessage`s: `parts`, no `content`. The first message decides; all must then be of that kind. */
function isUIMessage(message: unknown): boolean {
  return message !== null && typeof message === 'object' && 'parts' in message && !('content' in message);
}

function checkUIMessage(message: unknown, index: number, component: string): void {
  const fail = (field: string, problem: string): never => {
    throw new AdvisorArgumentError({ component, argument: `messages[${index}]${field}`, message: problem });
  };
  if (!isUIMessage(message))
    fail('', 'expected a UIMessage like the ones before it (`id`, `role`, `parts`); do not mix UIMessage and ModelMessage');
  const { id, role, parts } = message as { id?: unknown; role?: unknown; parts?: unknown };
  if (typeof id !== 'string' || id.length > MAX_UI_MESSAGE_ID_LENGTH)
    fail('.id', `expected a string of at most ${MAX_UI_MESSAGE_ID_LENGTH} characters`);
  if (typeof role !== 'string' || !UI_ROLES.has(role))
    fail('.role', `expected one of ${[...UI_ROLES].join(', ')}, got ${describeValue(role)}`);
  if (!Array.isArray(parts)) fail('.parts', 'expected an array of parts');
  (parts as unknown[]).forEach((part, partIndex) => {
    const where = `.parts[${partIndex}]`;
    if (part === null || typeof part !== 'object' || typeof (part as { type?: unknown }).type !== 'string') {
      fail(where, 'expected a part object with a string `type`');
    }
    const { type, text } = part as { type: string; text?: unknown };
    if ((type === 'text' || type === 'reasoning') && typeof text !== 'string') fail(`${where}.text`, 'expected a string');
  });
}

function checkModelMessage(message: unknown, index: number, component: string): void {
  const parsed = modelMessageSchema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new AdvisorArgumentError({
      component,
      argument: `messages[${index}]${path}`,
      message: `not a valid ModelMessage or UIMessage (${issue?.message ?? 'invalid shape'})`,
    });
  }
}

/**
 * The id `useChat` gave the new user message, when the caller sent
 * `UIMessage[]` ending with one: a resend of the same message (a retry, a
 * double submit) is then recognisably the same turn.
 */
export function newUserMessageId(messages: ChatMessages | undefined): string | undefined {
  const last = messages?.at(-1);
  if (last === undefined || !isUIMessage(last) || last.role !== 'user') return undefined;
  const { id } = last as UIMessage;
  return typeof id === 'string' && id.trim() !== '' && id.length <= MAX_UI_MESSAGE_ID_LENGTH ? id : undefined;
}

/** The caller's new input for a turn: the messages from the last user message on. */
export function newInput(messages: readonly ModelMessage[]): readonly ModelMessage[] {
  const lastUser = lastUserMessageIndex(messages);
  return lastUser === -1 ? messages : messages.slice(lastUser);
}
