import type { ChatStreamResult } from '../src/index.ts';

interface TraceLike {
  readonly hits?: readonly { readonly retriever: string; readonly count: number }[];
  readonly rerank?: { readonly reranker: string; readonly fallback?: { readonly message: string } };
  readonly dropped?: readonly unknown[];
  readonly timings?: Readonly<Record<string, number>>;
  readonly routes?: readonly { readonly query: number; readonly retrievers: readonly string[]; readonly fallback?: string }[];
  /** Every query text once; routes and hits name one by its index. */
  readonly queries?: readonly string[];
}

/** One line per advisor of the chain, outermost first: its name and order, for a banner. */
export function describeChain(chain: { readonly advisors: readonly { readonly name: string; readonly order?: number }[] }): string {
  return chain.advisors.map((advisor) => `${advisor.name} (${advisor.order ?? 0})`).join(' → ');
}

/**
 * Streams one answer to `write` as it arrives, then prints its sources (title
 * and score) and what each advisor did, from its metadata: memory's history and
 * stored messages, a one-line retrieval trace, what the page was sent.
 * Returns the answer text.
 */
export async function printTurn(result: ChatStreamResult, write: (text: string) => void): Promise<string> {
  write('Assistant: ');
  for await (const delta of result.textStream) write(delta);
  write('\n');
  const { text, sources, metadata } = await result.response;
  sources.forEach((source, index) => {
    const title = typeof source.metadata.title === 'string' ? source.metadata.title : source.id;
    const score = typeof source.score === 'number' ? ` (score ${source.score.toFixed(2)})` : '';
    write(`  [${index + 1}] ${title}${score}\n`);
  });
  for (const [advisor, data] of Object.entries(metadata)) {
    const trace = data.trace as TraceLike | undefined;
    if (trace !== undefined) write(`  trace ${advisor}: ${describeTrace(trace, data.noContext === true)}\n`);
    else if (typeof data.historyMessages === 'number') write(`  ${advisor}: ${describeMemory(data)}\n`);
    else if (data.advisors !== undefined) write(`  ${advisor}: sent the page ${Object.keys(data).join(', ')}\n`);
  }
  return text;
}

function describeMemory(data: Readonly<Record<string, unknown>>): string {
  const stored = typeof data.storedMessages === 'number' ? `, stored the turn (${data.storedMessages} messages)` : '';
  return `sent ${String(data.historyMessages)} earlier messages with the question${stored}`;
}

function describeTrace(trace: TraceLike, noContext: boolean): string {
  const parts: string[] = [];
  const searched = [...new Set(trace.routes?.map((route) => route.query))].map((index) => trace.queries?.[index]);
  if (searched.length > 0) parts.push(`queries ${searched.map((query) => JSON.stringify(query)).join(', ')}`);
  const routed = trace.routes?.flatMap((route) => [
    ...route.retrievers,
    ...(route.fallback === undefined ? [] : [`(router fallback: ${route.fallback})`]),
  ]);
  if (routed !== undefined && routed.length > 0) parts.push(`routed to ${[...new Set(routed)].join(', ')}`);
  for (const hit of trace.hits ?? []) parts.push(`${hit.retriever} recalled ${hit.count}`);
  if (trace.rerank !== undefined) {
    parts.push(
      `reranked by ${trace.rerank.reranker}${trace.rerank.fallback === undefined ? '' : ` (fell back: ${trace.rerank.fallback.message})`}`,
    );
  }
  if (trace.dropped !== undefined && trace.dropped.length > 0) parts.push(`dropped ${trace.dropped.length}`);
  if (noContext) parts.push('nothing relevant found, so no documents were injected');
  const timings = Object.entries(trace.timings ?? {}).map(([stage, ms]) => `${stage} ${Math.round(ms * 10) / 10} ms`);
  if (timings.length > 0) parts.push(timings.join(', '));
  return parts.join(' → ');
}
