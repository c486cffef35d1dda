import { type AdvisedResponse, type Advisor, AdvisorArgumentError, type AdvisorContext, UIMessageMetadata } from '../../src/index.ts';
import { redactValue } from '../../src/extension/index.ts';
import { DEFAULT_ADVISOR_FIELDS } from './default-advisor-fields.ts';
import { fitToBytes } from './fit-to-bytes.ts';

/** Options of `metadataPassthroughAdvisor`: what reaches the page, and how much of it. */
export interface MetadataPassthroughOptions {
  /** Default `metadata`. */
  readonly name?: string;
  /** Default -2500: outside the other built-in advisors, so timings cover them and their metadata is complete. */
  readonly order?: number;
  /** Context entries to copy, by key name (e.g. `['conversationId']`). Default none. */
  readonly contextKeys?: readonly string[];
  /** Advisors whose metadata to copy, by name. Default: all. */
  readonly advisors?: readonly string[] | 'all';
  /**
   * Fields of each advisor's metadata to copy. Default {@link DEFAULT_ADVISOR_FIELDS}
   * (ids, scores, counts, flags). Add `'trace'` for RAG retrieval traces, or
   * give `'all'`; either can carry upstream error text, redacted but verbatim otherwise.
   */
  readonly advisorFields?: readonly string[] | 'all';
  /** Add `latencyMs`, `usage`, `finishReason` and `outcome`. Default true. */
  readonly includeTimings?: boolean;
  /** Add a summary of each source (`id`, `title`, `score`). Default true. */
  readonly includeSources?: boolean;
  /**
   * Largest metadata sent, in bytes of JSON. Past it, the largest advisor
   * entries, then the sources, then context values are left out and named in
   * `omitted`. Default 16 384.
   */
  readonly maxBytes?: number;
  /**
   * Warn once per advisor (on the console) when all of an advisor's metadata is left out by `advisorFields`, as a
   * custom advisor's fields are by default: the page would get `{}` for it. Default: on unless `NODE_ENV` is
   * `production`.
   */
  readonly warnOnDroppedMetadata?: boolean;
}

/** Every string, list and nesting level is cut to these before the byte budget is applied. */
const VALUE_LIMITS = { maxStringLength: 1024, maxArrayLength: 50, maxKeys: 50, maxDepth: 8 } as const;

/**
 * Copies chosen context values and advisor results into the response metadata
 * and into the UI message stream as `message-metadata`, so a page can render
 * sources, timings and usage without parsing text. Retrieved documents reach
 * the UI as `source-document`/`source-url` parts.
 *
 * What reaches the browser is allow-listed: timings and usage, source ids,
 * titles and scores, the context keys named in `contextKeys`, and of each
 * advisor's metadata only {@link DEFAULT_ADVISOR_FIELDS} unless `advisorFields`
 * asks for more (such as `'trace'`). Everything is redacted (credentials in
 * values and under credential-like names), cut structurally (strings to 1024
 * characters, lists to 50 items, 8 levels deep) and kept under `maxBytes`.
 *
 * @example
 * createChatClient({ model, advisors: [metadataPassthroughAdvisor({ contextKeys: ['conversationId'] }), rag] })
 * // in the page: message.metadata.latencyMs, message.metadata.sources, message.metadata.advisors.rag.documents
 */
export function metadataPassthroughAdvisor(options: MetadataPassthroughOptions = {}): Advisor {
  const {
    name = 'metadata',
    order = -2500,
    contextKeys = [],
    advisors = 'all',
    advisorFields = DEFAULT_ADVISOR_FIELDS,
    includeTimings = true,
    includeSources = true,
    maxBytes = 16_384,
    warnOnDroppedMetadata = globalThis.process?.env?.NODE_ENV !== 'production',
  } = options;
  checkStringList(contextKeys, 'contextKeys', name);
  if (advisors !== 'all') checkStringList(advisors, 'advisors', name);
  if (advisorFields !== 'all') checkStringList(advisorFields, 'advisorFields', name);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 256) {
    throw new AdvisorArgumentError({ component: name, argument: 'maxBytes', message: 'expected an integer of at least 256' });
  }

  const startedAt = new WeakMap<AdvisorContext, number>();
  const selectedContext = (context: AdvisorContext) => {
    const entries = context.entries();
    return Object.fromEntries(contextKeys.filter((key) => entries[key] !== undefined).map((key) => [key, entries[key]]));
  };
  const selectedFields = (metadata: Readonly<Record<string, unknown>>) =>
    advisorFields === 'all'
      ? metadata
      : Object.fromEntries(advisorFields.filter((field) => field in metadata).map((field) => [field, metadata[field]]));
  const warnedAbout = new Set<string>();
  const warnIfDropped = (advisor: string, metadata: Readonly<Record<string, unknown>>, selected: Readonly<Record<string, unknown>>) => {
    const fields = Object.keys(metadata);
    if (!warnOnDroppedMetadata || fields.length === 0 || Object.keys(selected).length > 0 || warnedAbout.has(advisor)) return;
    warnedAbout.add(advisor);
    console.warn(
      `[ai-advisors] ${name}: none of the fields of advisor "${advisor}" (${fields.join(', ')}) reach the page, which gets {} for it; ` +
        `list them in metadataPassthroughAdvisor({ advisorFields: [...DEFAULT_ADVISOR_FIELDS, ${fields.map((field) => `'${field}'`).join(', ')}] }). ` +
        'This warning is shown once per advisor; turn it off with warnOnDroppedMetadata: false.',
    );
  };
  const redacted = (value: unknown) => redactValue(value, VALUE_LIMITS);
  const bounded = (metadata: Record<string, unknown>, advisorNames: readonly string[] = []) =>
    fitToBytes({
      metadata,
      maxBytes,
      droppable: [
        ...advisorNames.map((advisor) => ['advisors', advisor] as const),
        ['sources'] as const,
        ...contextKeys.map((key) => [key] as const),
      ],
    });

  return {
    name,
    order,
    before(request) {
      startedAt.set(request.context, performance.now());
      request.context.set(UIMessageMetadata, bounded(redacted(selectedContext(request.context)) as Record<string, unknown>));
      return request;
    },
    after(response: AdvisedResponse) {
      const { context } = response;
      // Each advisor's entry is redacted on its own, so an advisor named like a credential (`auth`) keeps its entry.
      const advisorMetadata = Object.fromEntries(
        Object.entries(response.metadata)
          .filter(([advisor]) => advisor !== name && (advisors === 'all' || advisors.includes(advisor)))
          .map(([advisor, metadata]) => {
            const selected = selectedFields(metadata);
            warnIfDropped(advisor, metadata, selected);
            return [advisor, redacted(selected)];
          }),
      );
      const started = startedAt.get(context);
      const summary = {
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
      const metadata = bounded(
        {
          ...(redacted(selectedContext(context)) as Record<string, unknown>),
          advisors: advisorMetadata,
          ...(redacted(summary) as Record<string, unknown>),
        },
        Object.keys(advisorMetadata),
      );
      context.annotate(name, metadata);
      context.set(UIMessageMetadata, metadata);
      return response;
    },
  };
}

function checkStringList(value: unknown, argument: string, component: string): void {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw new AdvisorArgumentError({ component, argument, message: 'expected an array of non-empty strings' });
  }
}
