/**
 * The fields of each advisor's metadata that `metadataPassthroughAdvisor`
 * sends to the browser by default: ids, scores, counts and flags written by the
 * built-in advisors. Retrieval traces (`trace`, which holds the query and any
 * upstream error text), safeguard reasons, rejected tool answers and the
 * fields of custom advisors go only when listed in `advisorFields`.
 *
 * - RAG advisors: `documents` (`{ id, score }`), `noContext`, `skipped`
 * - memory advisors: `recalled` (`{ id, score }`), `historyMessages`, `storedMessages`, `turnId`, `interrupted`
 * - safeguard: `blocked`
 */
export const DEFAULT_ADVISOR_FIELDS = [
  'documents',
  'noContext',
  'skipped',
  'recalled',
  'historyMessages',
  'storedMessages',
  'turnId',
  'interrupted',
  'blocked',
] as const;
