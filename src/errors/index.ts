export { AdvisorError } from './advisor-error.ts';
export { ComponentError } from './component-error.ts';
export { AdvisorArgumentError } from './advisor-argument-error.ts';
export { MemoryAppendUnknownError } from './memory-append-unknown-error.ts';
export { AdvisorTimeoutError } from './advisor-timeout-error.ts';
export { AppendConflictError } from './append-conflict-error.ts';
export { UnloadedMessageError } from './unloaded-message-error.ts';
export { DocumentLimitError } from './document-limit-error.ts';
