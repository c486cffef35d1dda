export {
  escapePromptText,
  formatDocumentContext,
  parseDocumentContext,
  type FormatDocumentContextOptions,
  type ParsedDocument,
  type ParsedDocumentContext,
} from './document-context.ts';
export {
  DEFAULT_CONTEXT_TEMPLATE,
  renderContextTemplate,
  validateContextTemplate,
  type RenderContextTemplateOptions,
} from './context-template.ts';
