import {
  InvalidArgumentError,
  UIMessageMetadata,
  type AdvisedResponse,
  type Advisor,
  type AdvisorContext,
} from '../../src/index.ts';

export interface MetadataPassthroughOptions {
  /** Default `metadata`. */
  readonly name?: string;
  /** Default -2500: outside the other built-in advisors, so timings cover them and their metadata is complete. */
  readonly order?: number;
  /** Context entries to copy, by key name (e.g. `['conversationId']`). Default none. */
  readonly contextKeys?: readonly string[];
  /** Advisors whose metadata to copy, by name. Default: all. */
  readonly advisors?: readonly string[] | 'all';
  /** Add `latencyMs`, `usage`, `finishReason` and `outcome`. Default true. */
  readonly includeTimings?: boolean;
  /** Add a summary of each source (`id`, `title`, `score`). Default true. */
  readonly includeSources?: boolean;
}

/**
 * Copies chosen context values and advisor results into the response metadata
 * and into the UI message stream as `message-metadata`, so a page can render
 * sources, timings and usage without parsing text. Retrieved documents reach
 * the UI as `source-document`/`source-url` parts.
 *
 * @example
 * createChatClient({ model, advisors: [metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }), rag] })
 * // in the page: message.metadata.latencyMs, message.metadata.advisors.rag.trace
 */
export function metadataPassthroughAdvisor(options: MetadataPassthroughOptions = {}): Advisor {
  const {
    name = 'metadata',
    order = -2500,
    contextKeys = [],
    advisors = 'all',
    includeTimings = true,
    includeSources = true,
  } = options;
  checkStringList(contextKeys, 'contextKeys', name);
  if (advisors !== 'all') checkStringList(advisors, 'advisors', name);

  const startedAt = new WeakMap<AdvisorContext, number>();
  const selectedContext = (context: AdvisorContext) => {
    const entries = context.entries();
    return Object.fromEntries(contextKeys.filter((key) => entries[key] !== undefined).map((key) => [key, entries[key]]));
  };

  return {
    name,
    order,
    before(request) {
      startedAt.set(request.context, performance.now());
      request.context.set(UIMessageMetadata, { ...selectedContext(request.context) });
      return request;
    },
    after(response: AdvisedResponse) {
      const { context } = response;
      const advisorMetadata = Object.fromEntries(
        Object.entries(response.metadata).filter(
          ([advisor]) => advisor !== name && (advisors === 'all' || advisors.includes(advisor)),
        ),
      );
      const started = startedAt.get(context);
      const data: Record<string, unknown> = {
        ...selectedContext(context),
        advisors: advisorMetadata,
        ...(includeTimings && {
          latencyMs: started === undefined ? undefined : Math.round(performance.now() - started),
          usage: {
            inputTokens: response.usage.inputTokens,
            outputTokens: response.usage.outputTokens,
            totalTokens: response.usage.totalTokens,
          },
          finishReason: response.finishReason,
          outcome: response.outcome,
        }),
        ...(includeSources && {
          sources: response.sources.map((document) => ({
            id: document.id,
            title: typeof document.metadata.title === 'string' ? document.metadata.title : undefined,
            score: document.score,
          })),
        }),
      };
      const serialisable = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
      context.annotate(name, serialisable);
      context.set(UIMessageMetadata, serialisable);
      return response;
    },
  };
}

function checkStringList(value: unknown, argument: string, component: string): void {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw new InvalidArgumentError({ component, argument, message: 'expected an array of non-empty strings' });
  }
}
