export {
  createChatClient,
  type ChatClient,
  type ChatClientOptions,
  type ChatInput,
  type ChatResponse,
  type ChatTrigger,
} from './create-chat-client.ts';
export type { ChatStreamResult, SseResponseOptions } from './chat-stream-result.ts';
export type { ChatMessages } from './normalize-messages.ts';
export { DEFAULT_INPUT_LIMITS, type InputLimits } from './input-limits.ts';
