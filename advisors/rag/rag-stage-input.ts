import type { ModelMessage } from 'ai';
import type { AdvisorContext } from '../../src/index.ts';

/** What every stage of the pipeline (query transformer, router, aggregator, post-processor) may use besides its own input. */
export interface RagStageInput {
  /** The conversation before the user's new input (history added by memory advisors). */
  readonly history: readonly ModelMessage[];
  readonly context: AdvisorContext;
  readonly abortSignal?: AbortSignal;
}
