export { AdvisorError } from './advisor-error.ts';
export { ComponentError } from './component-error.ts';
export { InvalidArgumentError } from './invalid-argument-error.ts';
export { TimeoutError } from './timeout-error.ts';
