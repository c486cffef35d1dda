import type { ModelMessage, UserModelMessage } from 'ai';
import type { AdvisedRequest } from '../../../src/index.ts';
import { messageText } from '../../../src/index.ts';
import type { Document } from '../../../src/index.ts';
import { formatDocumentContext } from '../../../src/retrieval/index.ts';
import { DEFAULT_CONTEXT_TEMPLATE, renderContextTemplate, validateContextTemplate } from '../../../src/retrieval/index.ts';
import { checkRagOptions, checkStringList, invalidOption } from '../validate-rag-options.ts';

/** Options of `createDocumentInjector`. */
export interface DocumentInjectorOptions {
  /** A template with `{question}` and `{context}`. Default `DEFAULT_CONTEXT_TEMPLATE`. */
  readonly template?: string;
  /** Metadata keys shown as attributes of each document (title is always shown). */
  readonly metadataKeys?: readonly string[];
}

/** Puts retrieved documents into the messages sent to the model. */
export interface DocumentInjector {
  /** `documents` are all of the turn's sources, in order. */
  inject(request: AdvisedRequest, documents: readonly Document[]): AdvisedRequest;
}

/**
 * The default injector: renders the template with the user's question and
 * the documents in the escaped `<documents>` format, and puts the result in
 * place of the text of the LAST user message of `request.messages`. The
 * request's `input` is left as the user wrote it, so memory stores the
 * unaugmented message. RAG advisors pass all of the turn's sources (theirs
 * and those of advisors further out), so stacked advisors produce one
 * `<documents>` block whose indexes match the order of `sources`. Document text cannot close its element or pose as an
 * instruction: it is escaped, and the template tells the model it is data.
 *
 * @example
 * createDocumentInjector({ metadataKeys: ['source', 'updatedAt'] })
 */
export function createDocumentInjector(options: DocumentInjectorOptions = {}): DocumentInjector {
  const component = 'document-injector';
  checkRagOptions(options, { component, known: ['template', 'metadataKeys'] });
  const { template = DEFAULT_CONTEXT_TEMPLATE, metadataKeys = [] } = options;
  validateContextTemplate(template, component);
  checkStringList(metadataKeys, { component, argument: 'metadataKeys' });
  formatDocumentContext([], { metadataKeys });
  return {
    inject: (request, documents) =>
      replaceLastUserText(request, (question) =>
        renderContextTemplate({ template, question, context: formatDocumentContext(documents, { metadataKeys }) }),
      ),
  };
}

/**
 * A copy of the request whose last user message has its text replaced by
 * `render(question)`, where `question` is that message's text as the user
 * wrote it (from `request.input`, so an advisor further in never wraps an
 * already augmented message again); its other parts (images, files) are kept.
 */
export function replaceLastUserText(request: AdvisedRequest, render: (question: string) => string): AdvisedRequest {
  const index = request.messages.findLastIndex((message) => message.role === 'user');
  if (index === -1) {
    throw invalidOption({ component: 'document-injector', argument: 'messages' }, 'there is no user message to add the documents to');
  }
  const message = request.messages[index] as UserModelMessage;
  const original = request.input.findLast((candidate) => candidate.role === 'user');
  const text = render(messageText(original ?? message));
  const content: UserModelMessage['content'] =
    typeof message.content === 'string' ? text : [{ type: 'text', text }, ...message.content.filter((part) => part.type !== 'text')];
  const messages: ModelMessage[] = [...request.messages];
  messages[index] = { ...message, content };
  return { ...request, messages };
}
