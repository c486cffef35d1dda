import type { Document } from '../../../src/index.ts';
import { ComponentError } from '../../../src/index.ts';
import { droppedBetween, type RetrievalTrace } from '../retrieval-trace.ts';
import type { DocumentPostProcessor, PostProcessInput } from './document-post-processor.ts';

/** Runs the post-processors in order; the documents each one removes are recorded as dropped by it. */
export async function postProcessDocuments({
  documents,
  processors,
  input,
}: {
  documents: readonly Document[];
  processors: readonly DocumentPostProcessor[];
  input: PostProcessInput;
}): Promise<{ documents: Document[]; dropped: RetrievalTrace['dropped'][number][] }> {
  let current = [...documents];
  const dropped: RetrievalTrace['dropped'][number][] = [];
  for (const processor of processors) {
    const next = await processor.process(current, input);
    if (!Array.isArray(next)) {
      throw new ComponentError({
        component: processor.name,
        operation: 'process',
        message: 'a post-processor must return an array of documents',
      });
    }
    dropped.push(...droppedBetween(current, next, processor.name));
    current = next;
  }
  return { documents: current, dropped };
}
