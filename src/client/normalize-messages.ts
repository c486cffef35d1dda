import { convertToModelMessages, modelMessageSchema, type ModelMessage, type ToolSet, type UIMessage } from 'ai';
import { InvalidArgumentError } from '../errors/invalid-argument-error.ts';

export type ChatMessages = readonly ModelMessage[] | readonly UIMessage[];

export interface PromptInput {
  readonly prompt?: string;
  readonly messages?: ChatMessages;
  readonly allowSystemInMessages?: boolean;
}

/**
 * Checks `prompt`/`messages` synchronously, so a bad call fails before any
 * advisor or model runs. Returns a function that produces the model messages
 * (UI messages need the asynchronous AI SDK conversion).
 */
export function checkPromptInput(input: PromptInput, component: string): (tools: ToolSet | undefined) => Promise<ModelMessage[]> {
  const { prompt, messages } = input;
  if (prompt !== undefined && messages !== undefined) {
    throw new InvalidArgumentError({ component, argument: 'prompt', message: 'pass either `prompt` or `messages`, not both' });
  }
  if (prompt === undefined && messages === undefined) {
    throw new InvalidArgumentError({ component, argument: 'messages', message: 'pass `prompt` (a string) or `messages`' });
  }
  if (prompt !== undefined) {
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new InvalidArgumentError({ component, argument: 'prompt', message: 'expected a non-empty string' });
    }
    const userMessage: ModelMessage = { role: 'user', content: prompt };
    return async () => [userMessage];
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new InvalidArgumentError({ component, argument: 'messages', message: 'expected a non-empty array of messages' });
  }
  const uiMessages = messages.every(isUIMessage);
  messages.forEach((message, index) => {
    if (!uiMessages) checkModelMessage(message, index, component);
    if (message.role === 'system' && input.allowSystemInMessages !== true) {
      throw new InvalidArgumentError({
        component,
        argument: `messages[${index}]`,
        message:
          'system messages are not allowed in `messages` (AI SDK 7 rule): pass system text as `instructions`, or set `allowSystemInMessages: true`',
      });
    }
  });
  if (uiMessages) {
    return (tools) => convertToModelMessages(messages as UIMessage[], { tools });
  }
  const modelMessages = [...(messages as readonly ModelMessage[])];
  return async () => modelMessages;
}

function isUIMessage(message: unknown): message is UIMessage {
  return (
    message !== null &&
    typeof message === 'object' &&
    Array.isArray((message as UIMessage).parts) &&
    !('content' in message)
  );
}

function checkModelMessage(message: unknown, index: number, component: string): void {
  const parsed = modelMessageSchema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new InvalidArgumentError({
      component,
      argument: `messages[${index}]${path}`,
      message: `not a valid ModelMessage or UIMessage (${issue?.message ?? 'invalid shape'})`,
    });
  }
}

/** The caller's new input for a turn: the messages from the last user message on. */
export function newInput(messages: readonly ModelMessage[]): readonly ModelMessage[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  return lastUser === -1 ? messages : messages.slice(lastUser);
}
