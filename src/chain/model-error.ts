import { AdvisorError } from '../errors/advisor-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { isAbortError } from './wrap-advisor-error.ts';

/** Names the model as the failed component, keeping the provider's error as `cause`. */
export function modelError(error: unknown, operation: 'generate' | 'stream'): unknown {
  if (error instanceof AdvisorError || isAbortError(error)) return error;
  return new ComponentError({ component: 'model', operation, cause: error });
}
