import type { Advisor } from '../chain/advisor.ts';
import type { AdvisorContext } from '../context/advisor-context.ts';
import { recordSpan } from './record-span.ts';
import { turnTelemetryOf } from './turn-telemetry.ts';

/**
 * Runs one advisor hook in its own span (`ai_advisors.advisor.before`,
 * `.around` or `.after`: the advisor's name, order and hook) when the turn is
 * traced; calls it directly otherwise, so an untraced chain allocates nothing
 * for it. An `around` span holds the advisors inside it and the model call's
 * set-up; a streamed answer flows on after it ends.
 */
export function traceAdvisorHook<T>(
  context: AdvisorContext,
  advisor: Advisor,
  hook: 'before' | 'around' | 'after',
  run: () => Promise<T> | T,
): Promise<T> | T {
  if (turnTelemetryOf(context) === undefined) return run();
  const attributes = {
    'ai_advisors.advisor.name': advisor.name,
    'ai_advisors.advisor.order': advisor.order ?? 0,
    'ai_advisors.advisor.hook': hook,
  };
  return recordSpan(context, { name: `ai_advisors.advisor.${hook}`, attributes }, run);
}
