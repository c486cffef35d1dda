import type { ContentPart, ProviderMetadata, TextStreamPart, ToolSet } from 'ai';
import { toResponseMessages } from 'ai/internal';
import type { AdvisedRequest, ResponseMessage } from './advisor.ts';

/**
 * Whether the model call is one step whose message the chain records itself (see {@link StepContent}): no tools, no
 * tool choice, no stop condition and no structured output, the calls for which the AI SDK records no content unless a
 * step or end callback asks it to.
 */
export function recordsOwnStep(request: AdvisedRequest): boolean {
  const { toolChoice, stopWhen, output } = request.settings;
  return (request.tools === undefined || Object.keys(request.tools).length === 0) && !toolChoice && !stopWhen && !output;
}

type TextContent = Extract<ContentPart<ToolSet>, { type: 'text' | 'reasoning' }>;

/**
 * The content of a one-step model call, recorded from its stream parts as the AI SDK records a step's content, and
 * made into the step's response messages by the AI SDK's own `toResponseMessages`. Handed a step or end callback
 * instead, the SDK would record the content and also build step results, end events and copies of the messages, which
 * a turn without tools never reads.
 */
export class StepContent {
  readonly #content: ContentPart<ToolSet>[] = [];
  /** Text and reasoning parts still streaming, by part id. */
  readonly #open = new Map<string, TextContent>();

  record(part: TextStreamPart<ToolSet>): void {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const started: TextContent = {
          type: part.type === 'text-start' ? 'text' : 'reasoning',
          text: '',
          providerMetadata: part.providerMetadata,
        };
        this.#open.set(part.id, started);
        this.#content.push(started);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const open = this.#open.get(part.id);
        if (open === undefined) break;
        open.text += part.text;
        open.providerMetadata = part.providerMetadata ?? open.providerMetadata;
        break;
      }
      case 'text-end':
      case 'reasoning-end': {
        const open = this.#open.get(part.id);
        if (open === undefined) break;
        open.providerMetadata = part.providerMetadata ?? open.providerMetadata;
        this.#open.delete(part.id);
        break;
      }
      case 'file':
      case 'reasoning-file':
        this.#content.push({ type: part.type, file: part.file, ...withMetadata(part.providerMetadata) } as ContentPart<ToolSet>);
        break;
      case 'tool-result':
        if (!part.preliminary) this.#content.push(part);
        break;
      // Kept whole, as the SDK keeps them; a call of a tool the request did not give ends in a `tool-error` of the step.
      case 'custom':
      case 'source':
      case 'tool-call':
      case 'tool-error':
      case 'tool-approval-request':
      case 'tool-approval-response':
        this.#content.push(part as ContentPart<ToolSet>);
        break;
    }
  }

  /** The step's text, its text parts joined in the order they started, as the AI SDK's step result gives it. */
  text(): string {
    let text = '';
    for (const part of this.#content) if (part.type === 'text') text += part.text;
    return text;
  }

  /** The step's response messages, as the AI SDK's step result would hold them. */
  messages(): Promise<ResponseMessage[]> {
    return toResponseMessages({ content: this.#content, tools: undefined });
  }
}

function withMetadata(providerMetadata: ProviderMetadata | undefined): { providerMetadata?: ProviderMetadata } {
  return providerMetadata === undefined ? {} : { providerMetadata };
}
