import { describeValue } from '../../src/context/context-key.ts';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.ts';
import type { Reranker } from '../../src/retrieval/reranker.ts';
import type { Retriever } from '../../src/retrieval/retriever.ts';

/** Default deadline of each model, embedding, retriever and reranker call the RAG pieces make. */
export const DEFAULT_RAG_TIMEOUT_MS = 10_000;

export function invalidOption(component: string, argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ component, argument, message });
}

export function checkName(name: unknown, component: string): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw invalidOption(component, 'name', `expected a non-empty string, got ${describeValue(name)}`);
  }
  return name;
}

export function checkOrder(order: unknown, component: string): number {
  if (typeof order !== 'number' || !Number.isFinite(order)) {
    throw invalidOption(component, 'order', `expected a finite number, got ${describeValue(order)}`);
  }
  return order;
}

export function checkTimeout(value: unknown, component: string, argument = 'timeoutMs'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidOption(component, argument, `expected a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/** A language model: a model object (`doGenerate`) or a gateway model id string. */
export function checkLanguageModel(model: unknown, component: string): void {
  const isModelObject = model !== null && typeof model === 'object' && typeof (model as { doGenerate?: unknown }).doGenerate === 'function';
  if (!isModelObject && !(typeof model === 'string' && model.trim() !== '')) {
    throw invalidOption(component, 'model', 'expected an AI SDK LanguageModel (a model object or a model id string)');
  }
}

export function checkRetriever(retriever: unknown, component: string, argument: string): Retriever {
  const candidate = retriever as Partial<Retriever> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.retrieve !== 'function') {
    throw invalidOption(component, argument, 'expected a Retriever (an object with a retrieve(query, options) method)');
  }
  if (typeof candidate.name !== 'string' || candidate.name.trim() === '') {
    throw invalidOption(component, `${argument}.name`, 'every retriever needs a non-empty name (the trace records it)');
  }
  return candidate as Retriever;
}

/** A non-empty list of retrievers with unique names. */
export function checkRetrievers(retrievers: unknown, component: string, argument = 'retrievers'): readonly Retriever[] {
  if (!Array.isArray(retrievers) || retrievers.length === 0) {
    throw invalidOption(component, argument, 'expected a non-empty array of retrievers');
  }
  const names = new Set<string>();
  return retrievers.map((retriever: unknown, index) => {
    const checked = checkRetriever(retriever, component, `${argument}[${index}]`);
    if (names.has(checked.name)) {
      throw invalidOption(component, `${argument}[${index}].name`, `two retrievers are named "${checked.name}"; the trace could not tell them apart`);
    }
    names.add(checked.name);
    return checked;
  });
}

export function checkReranker(reranker: unknown, component: string): Reranker {
  const candidate = reranker as Partial<Reranker> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.rerank !== 'function') {
    throw invalidOption(component, 'reranker', 'expected a Reranker (an object with a rerank(query, documents, options) method)');
  }
  return candidate as Reranker;
}

export function checkStringList(value: unknown, component: string, argument: string): readonly string[] {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw invalidOption(component, argument, 'expected an array of non-empty strings');
  }
  return value;
}
