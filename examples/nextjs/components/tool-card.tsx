'use client';

import { getToolName, type DynamicToolUIPart, type ToolUIPart } from 'ai';

/** What the page does for a tool: answer the client tool, approve or deny a call. */
export interface ToolActions {
  shareLocation(toolCallId: string): void;
  respond(approvalId: string, approved: boolean): void;
}

/** How the example's tools read to a person; another tool shows its own name. */
const TOOL_TITLES: Record<string, string> = {
  currentTime: 'Check the server time',
  getLocation: 'Share your location',
  deleteNotes: 'Delete notes',
};

/**
 * A tool call as a card: what it is, where it stands, its input and result as fields. `stale`: a call waiting for
 * the user in an earlier answer, which the user passed by with another question; it will not run.
 */
export function ToolCard({ part, actions, stale }: { part: ToolUIPart | DynamicToolUIPart; actions: ToolActions; stale: boolean }) {
  const name = getToolName(part);
  const waiting = part.state === 'approval-requested' || (part.state === 'input-available' && name === 'getLocation');
  return (
    <section className="tool" data-testid={`tool-${name}`} data-state={part.state} aria-label={TOOL_TITLES[name] ?? name}>
      <div className="tool-head">
        <span className="tool-name">{TOOL_TITLES[name] ?? name}</span>
        <span className="call-state" data-testid="call-state">
          {stale && waiting ? 'Not answered' : stateLabel(part)}
        </span>
      </div>
      {/* What it will run with, until it has a result: then the result. */}
      {part.state === 'output-available' ? <Fields value={part.output} /> : <Fields value={part.input} />}
      {!stale && part.state === 'input-available' && name === 'getLocation' && (
        <button type="button" data-testid="share-location" onClick={() => actions.shareLocation(part.toolCallId)}>
          Share my location
        </button>
      )}
      {!stale && part.state === 'approval-requested' && (
        <div className="tool-actions">
          <button type="button" data-testid="approve" onClick={() => actions.respond(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" data-testid="deny" className="secondary" onClick={() => actions.respond(part.approval.id, false)}>
            Deny
          </button>
        </div>
      )}
      {part.state === 'output-error' && <p className="tool-error">{part.errorText}</p>}
    </section>
  );
}

function stateLabel(part: ToolUIPart | DynamicToolUIPart): string {
  switch (part.state) {
    case 'input-streaming':
      return 'Preparing…';
    case 'input-available':
      return getToolName(part) === 'getLocation' ? 'Waiting for you' : 'Running…';
    case 'approval-requested':
      return 'Needs your approval';
    case 'approval-responded':
      return part.approval.approved ? 'Approved, running…' : 'Declined';
    case 'output-available':
      return 'Done';
    case 'output-denied':
      return 'Declined';
    case 'output-error':
      return 'Failed';
    default:
      return '';
  }
}

/** An object's fields as a definition list (nested values as JSON); nothing for an empty object. */
function Fields({ value }: { value: unknown }) {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return <code className="tool-value">{JSON.stringify(value)}</code>;
  const entries = Object.entries(value);
  if (entries.length === 0) return null;
  return (
    <dl className="tool-fields">
      {entries.map(([key, field]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{typeof field === 'string' ? field : JSON.stringify(field)}</dd>
        </div>
      ))}
    </dl>
  );
}
