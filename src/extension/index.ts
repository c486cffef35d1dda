/**
 * For authors of advisors and stores: option checks, deadlines, spans and redaction.
 *
 * @module ai-advisors/extension
 */
// ai-advisors/extension: what authors of advisors, retrievers, rerankers, vector stores and memory stores need to
// behave like the built-in ones: option checks, a deadline for external calls, and redaction.
export {
  checkAbortSignal,
  checkBoolean,
  checkChatMemory,
  checkFiniteNumber,
  checkFunction,
  checkNonEmptyString,
  checkNonNegativeInteger,
  checkOneOf,
  checkOptional,
  checkOptions,
  checkPositiveInteger,
  checkPositiveNumber,
  type OptionSite,
} from '../util/check-options.ts';
export { describeValue } from '../context/context-key.ts';
export { documentSourcePart, documentSourceParts, MAX_SOURCE_PARTS } from '../chain/document-source-part.ts';
export { callWithTimeout } from '../util/call-with-timeout.ts';
export { forwardAbort } from '../util/forward-abort.ts';
export { raceAbort } from '../util/race-abort.ts';
export { describeResult, isTraced, recordSpan, type SpanAttributes, type SpanRecorder } from '../telemetry/record-span.ts';
export { checkNesting, MAX_NESTING_DEPTH } from '../util/check-nesting.ts';
export {
  isSecretName,
  redactError,
  redactSecrets,
  redactValue,
  type JsonValue,
  type RedactErrorOptions,
  type RedactValueOptions,
} from '../security/index.ts';
