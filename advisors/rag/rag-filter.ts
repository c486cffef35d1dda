import type { AdvisorContext } from '../../src/index.ts';
import type { FilterExpression } from '../../src/index.ts';
import { resolveFilter } from '../../src/filter/index.ts';
import { withRequiredFilter } from '../../src/filter/index.ts';
import { RagFilter } from './rag-context-keys.ts';
import { describeValue } from '../../src/extension/index.ts';
import { invalidOption } from './validate-rag-options.ts';

/**
 * The advisor's own filter: fixed (text or expression), or derived from the
 * request context, e.g. the tenant: `(context) => eq('tenant', context.require(TenantId, 'rag'))`.
 */
export type RagFilterOption = FilterExpression | string | ((context: AdvisorContext) => FilterExpression | string | undefined);

/**
 * Validates the advisor's filter option at construction and returns the
 * function that computes one request's filter: the advisor's filter AND the
 * per-call `RagFilter` from the context.
 */
export function createRequestFilter(
  option: RagFilterOption | undefined,
  component: string,
): (context: AdvisorContext) => FilterExpression | undefined {
  if (
    option !== undefined &&
    typeof option !== 'function' &&
    typeof option !== 'string' &&
    (option === null || typeof option !== 'object')
  ) {
    throw invalidOption(
      { component, argument: 'filter' },
      `expected filter text, a filter expression, or a function of the request context, got ${describeValue(option)}`,
    );
  }
  const fixed = typeof option === 'function' ? undefined : resolveFilter(option);
  return (context) => {
    const required = typeof option === 'function' ? resolveFilter(option(context)) : fixed;
    const requested = resolveFilter(context.get(RagFilter));
    return required === undefined ? requested : withRequiredFilter(required, requested);
  };
}
