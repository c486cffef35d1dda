export type {
  AdvisedRequest,
  AdvisedResponse,
  AdvisedStream,
  Advisor,
  CallNext,
  ChatCallSettings,
  ResponseMessage,
  StreamNext,
  TurnOutcome,
} from './advisor.ts';
export { createAdvisorChain, type AdvisorChain } from './advisor-chain.ts';
export { answerDirectly, streamDirectAnswer, type AnswerDirectlyOptions } from './answer-directly.ts';
export { callModel } from './call-model.ts';
export { streamModel } from './stream-model.ts';
export { documentSourcePart, documentSourceParts, MAX_SOURCE_PARTS } from './document-source-part.ts';
export { messageText, userText } from './request-text.ts';
