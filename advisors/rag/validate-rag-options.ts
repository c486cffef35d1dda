import { checkNonEmptyString, checkOptions, describeValue, type OptionSite } from '../../src/extension/index.ts';
import { AdvisorArgumentError } from '../../src/index.ts';
import type { Reranker } from '../../src/index.ts';
import type { Retriever } from '../../src/index.ts';

/** Default deadline of each model, embedding, retriever and reranker call the RAG pieces make. */
export const DEFAULT_RAG_TIMEOUT_MS = 10_000;

/**
 * Options of the RAG advisors renamed to the one vocabulary (`candidateK`
 * recalled per retriever, `topK` injected, `minScore` the threshold), with
 * what the new option means, so an upgrading user is told what to write.
 */
export const RENAMED_RAG_OPTIONS: Readonly<Record<string, string>> = {
  recallK: 'renamed to candidateK (how many candidates each retriever recalls)',
  topN: 'renamed to topK (how many documents are injected)',
  recallMinScore: 'renamed to candidateMinScore (the threshold each retriever applies before reranking)',
  timeoutMs: 'renamed to retrieverTimeoutMs (the deadline of each retriever call)',
};

export function invalidOption({ component, argument }: OptionSite, message: string): AdvisorArgumentError {
  return new AdvisorArgumentError({ component, argument, message });
}

/**
 * `checkOptions`, except that an option that was renamed or moved fails with
 * what replaced it (`replaced[key]`) rather than as merely unknown.
 */
export function checkRagOptions<T extends object>(
  options: T,
  { component, known, replaced = {} }: { component: string; known: readonly string[]; replaced?: Readonly<Record<string, string>> },
): T {
  if (options !== null && typeof options === 'object') {
    const old = Object.keys(options).find((key) => !known.includes(key) && Object.hasOwn(replaced, key));
    if (old !== undefined) throw invalidOption({ component, argument: old }, `option "${old}" was ${replaced[old]}`);
  }
  return checkOptions(options, { component, known });
}

/** A language model: a model object (`doGenerate`) or a gateway model id string. */
export function checkLanguageModel(value: unknown, site: OptionSite): void {
  const isModelObject = value !== null && typeof value === 'object' && typeof (value as { doGenerate?: unknown }).doGenerate === 'function';
  if (!isModelObject && !(typeof value === 'string' && value.trim() !== '')) {
    throw invalidOption(site, `expected an AI SDK LanguageModel (a model object or a model id string), got ${describeValue(value)}`);
  }
}

export function checkRetriever(value: unknown, site: OptionSite): Retriever {
  const candidate = value as Partial<Retriever> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.retrieve !== 'function') {
    throw invalidOption(site, `expected a Retriever (an object with a retrieve(query, options) method), got ${describeValue(value)}`);
  }
  if (typeof candidate.name !== 'string' || candidate.name.trim() === '') {
    throw invalidOption({ ...site, argument: `${site.argument}.name` }, 'every retriever needs a non-empty name (the trace records it)');
  }
  return candidate as Retriever;
}

/** A non-empty list of retrievers with unique names. */
export function checkRetrievers(value: unknown, site: OptionSite): readonly Retriever[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidOption(site, `expected a non-empty array of retrievers, got ${describeValue(value)}`);
  }
  const names = new Set<string>();
  return value.map((retriever: unknown, index) => {
    const checked = checkRetriever(retriever, { ...site, argument: `${site.argument}[${index}]` });
    if (names.has(checked.name)) {
      throw invalidOption(
        { ...site, argument: `${site.argument}[${index}].name` },
        `two retrievers are named "${checked.name}": give each its own name (the name option of its factory, e.g. createBm25Retriever({ name: 'manuals', ... })), so that traces and provenance can tell them apart`,
      );
    }
    names.add(checked.name);
    return checked;
  });
}

export function checkReranker(value: unknown, site: OptionSite): Reranker {
  const candidate = value as Partial<Reranker> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.rerank !== 'function') {
    throw invalidOption(
      site,
      `expected a Reranker (an object with a rerank(query, documents, options) method), got ${describeValue(value)}`,
    );
  }
  return candidate as Reranker;
}

/** A pipeline stage: an object with a name and the stage's `method` (`transform`, `route`, `aggregate`, `process`). */
export function checkStage<T>(value: unknown, method: string, site: OptionSite): T {
  const candidate = value as Record<string, unknown> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    typeof candidate[method] !== 'function' ||
    typeof candidate.name !== 'string'
  ) {
    throw invalidOption(site, `expected an object with a name and a ${method}() method, got ${describeValue(value)}`);
  }
  return value as T;
}

export function checkStages<T>(value: unknown, method: string, site: OptionSite): readonly T[] {
  if (!Array.isArray(value)) throw invalidOption(site, `expected an array, got ${describeValue(value)}`);
  return value.map((stage: unknown, index) => checkStage<T>(stage, method, { ...site, argument: `${site.argument}[${index}]` }));
}

export function checkStringList(value: unknown, site: OptionSite): readonly string[] {
  if (!Array.isArray(value)) throw invalidOption(site, `expected an array of non-empty strings, got ${describeValue(value)}`);
  value.forEach((entry: unknown, index) => checkNonEmptyString(entry, { ...site, argument: `${site.argument}[${index}]` }));
  return value;
}
