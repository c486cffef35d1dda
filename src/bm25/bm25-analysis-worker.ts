import { parentPort, workerData } from 'node:worker_threads';
import { analyzeBatch } from './analyze-batch.ts';
import { BUILT_IN_ANALYZERS } from './built-in-analyzers.ts';

/** Analyzes batches of texts for `buildBm25Retriever` with the built-in analyzer named in `workerData.analyzer`. */
const analyzer = BUILT_IN_ANALYZERS.get((workerData as { analyzer: string }).analyzer)!;
parentPort!.on('message', (texts: string[]) => {
  const batch = analyzeBatch(texts, analyzer);
  parentPort!.postMessage(batch, [batch.frequencies.buffer as ArrayBuffer, batch.offsets.buffer as ArrayBuffer]);
});
