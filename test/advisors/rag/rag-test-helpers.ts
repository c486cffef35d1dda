import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { AdvisorContext } from '../../../src/context/advisor-context.ts';
import type { Document } from '../../../src/document/document.ts';
import { matchesFilter } from '../../../src/filter/match-filter.ts';
import type { RetrieveOptions, Retriever } from '../../../src/retrieval/retriever.ts';
import { usage } from '../../helpers/mock-models.ts';
import type { RagStageInput } from '../../../advisors/rag/index.ts';

/** A model that answers every generate call with `answer(prompt)` (or throws what it throws). */
export function answeringModel(answer: (prompt: string) => string | Promise<string>): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions) => ({
      content: [{ type: 'text', text: await answer(promptOf(options)) }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    }),
  });
}

/** A model that never answers until its call is aborted. */
export function hangingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: (options) =>
      new Promise((_resolve, reject) =>
        options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal!.reason), { once: true }),
      ),
  });
}

/** All the text the model received (instructions and messages). */
export function promptOf(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .map((message) =>
      typeof message.content === 'string' ? message.content : message.content.map((part) => ('text' in part ? part.text : '')).join(''),
    )
    .join('\n');
}

export function stageInput(overrides: Partial<RagStageInput> = {}): RagStageInput {
  return { history: [], context: new AdvisorContext(), ...overrides };
}

export function doc(id: string, text: string, metadata: Record<string, unknown> = {}, score?: number): Document {
  return { id, text, metadata, ...(score === undefined ? {} : { score }) };
}

export interface RecordingRetriever extends Retriever {
  readonly calls: { query: string; options: RetrieveOptions }[];
}

/**
 * A retriever over fixed documents: keeps those whose text shares a word with
 * the query (or all, with `matchAll`) and that pass the filter, scores them
 * by shared words, and records its calls.
 */
export function keywordRetriever(
  name: string,
  documents: readonly Document[],
  { delayMs = 0, matchAll = false }: { delayMs?: number; matchAll?: boolean } = {},
): RecordingRetriever {
  const calls: { query: string; options: RetrieveOptions }[] = [];
  return {
    name,
    calls,
    async retrieve(query, options = {}) {
      calls.push({ query, options });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const words = new Set(query.toLowerCase().match(/\p{L}+/gu) ?? []);
      return documents
        .filter((document) => options.filter === undefined || matchesFilter(options.filter, document.metadata))
        .map((document) => ({
          ...document,
          score: (document.text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => words.has(word)).length,
        }))
        .filter((document) => matchAll || document.score > 0)
        .filter((document) => options.minScore === undefined || document.score >= options.minScore)
        .sort((a, b) => b.score - a.score)
        .slice(0, options.topK);
    },
  };
}
