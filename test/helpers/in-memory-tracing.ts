import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll } from 'vitest';

/**
 * Registers the real OpenTelemetry SDK globally for the test file, spans kept
 * in memory, with async context propagation; unregistered after the file's
 * tests. Returns the exporter whose finished spans the tests read, and a
 * flush to call before reading them.
 */
export function useInMemoryTracing(): { exporter: InMemorySpanExporter; flush: () => Promise<void> } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
  afterAll(async () => {
    await provider.shutdown();
    contextManager.disable();
    trace.disable();
    context.disable();
  });
  return { exporter, flush: () => provider.forceFlush() };
}
