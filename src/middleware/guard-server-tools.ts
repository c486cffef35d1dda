import type { ToolResultPart } from '@ai-sdk/provider-utils';
import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { createToolModelOutput } from 'ai/internal';
import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import { AppendConflictError } from '../errors/append-conflict-error.ts';
import { ComponentError } from '../errors/component-error.ts';
import { scopedAppendKey } from '../memory/append-key.ts';
import type { ChatMemory } from '../memory/chat-memory.ts';
import type { MemoryEntry } from '../memory/memory-entry.ts';
import { validateConversationId } from '../memory/validate-conversation-id.ts';
import { checkChatMemory, checkOptions, checkPositiveNumber } from '../util/check-options.ts';
import { describeValue } from '../context/context-key.ts';
import { recordToolResult, toolCallStep } from './server-tool-registry.ts';

const COMPONENT = 'guard-server-tools';

/** Options of `guardServerTools`. */
export interface GuardServerToolsOptions {
  /** The chat memory the middleware's memory advisor keeps the conversation in. */
  readonly memory: ChatMemory;
  /** The request's conversation, as the route passes it to the middleware (`providerOptions.advisors.conversationId`). */
  readonly conversationId: string;
  /**
   * How long a request whose approved call another request already runs waits for that run's result, in
   * milliseconds. Default 30 000; past it, the call fails in the waiting request (the tool still runs once).
   */
  readonly waitForRunMs?: number;
}

type ToolAnswerPart = Extract<ModelMessage, { role: 'tool' }>['content'][number];
type ApprovalResponse = Extract<ToolAnswerPart, { type: 'tool-approval-response' }>;

/**
 * The server's tools for a `streamText` call through `advisorMiddleware` with a memory advisor, each run once per
 * call and its result kept in memory. The AI SDK runs an approved tool before the model (and so the middleware) is
 * called, and returns a one-step turn's results through the client; this wrapper closes both gaps:
 * - an approved call (`needsApproval`) is claimed in memory before its tool runs, so a second request carrying the same
 *   approval (a double-clicked Approve, a resend) waits for the first one's result and returns it: the tool runs once;
 * - each result is stored as the call's answer right after the step that made the call, so the next request continues
 *   from the server's own result in any process (a copy the client sends back, altered or not, is not taken), and a
 *   user who asks something else instead leaves the result stored rather than a cancelled call.
 *
 * Tools without `execute` (their results come from the client) are passed through. Not needed with the chat client,
 * whose memory advisors claim approvals before its tools run.
 *
 * @example
 * const result = streamText({
 *   model: wrapLanguageModel({ model, middleware: advisorMiddleware([messageMemoryAdvisor({ memory })]) }),
 *   tools: guardServerTools({ deleteFile, weather }, { memory, conversationId: id }),
 *   messages: await convertToModelMessages(messages),
 *   providerOptions: { advisors: { conversationId: id } },
 * });
 */
export function guardServerTools<TOOLS extends ToolSet>(tools: TOOLS, options: GuardServerToolsOptions): TOOLS {
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'tools',
      message: `expected a tool set, got ${describeValue(tools)}`,
    });
  }
  const {
    memory,
    conversationId,
    waitForRunMs = 30_000,
  } = checkOptions(options, {
    component: COMPONENT,
    known: ['memory', 'conversationId', 'waitForRunMs'],
  });
  checkChatMemory(memory, { component: COMPONENT, argument: 'memory' });
  validateConversationId(conversationId, COMPONENT);
  checkPositiveNumber(waitForRunMs, { component: COMPONENT, argument: 'waitForRunMs' });
  const guard = { memory, conversationId, waitForRunMs };
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [name, typeof tool.execute === 'function' ? guardTool(name, tool, guard) : tool]),
  ) as TOOLS;
}

interface Guard {
  readonly memory: ChatMemory;
  readonly conversationId: string;
  readonly waitForRunMs: number;
}

/** The tool with its `execute` claimed and recorded; a streaming `execute` (an async generator) stays one. */
function guardTool(name: string, tool: Tool, guard: Guard): Tool {
  const execute = tool.execute!;
  const record = (input: unknown, execution: ToolExecutionOptions<unknown>, run: ClaimedRun, outcome: RunOutcome) =>
    recordRun(guard, { name, tool, input, execution, run, outcome });
  if (execute.constructor.name === 'AsyncGeneratorFunction') {
    return {
      ...tool,
      execute: async function* (input: unknown, execution: ToolExecutionOptions<unknown>) {
        const run = await claimRun(guard, execution);
        if ('taken' in run) {
          yield await run.taken;
          return;
        }
        let last: unknown;
        try {
          for await (const output of execute(input, execution) as AsyncIterable<unknown>) yield (last = output);
        } catch (error) {
          await record(input, execution, run, { error });
          throw error;
        }
        await record(input, execution, run, { output: last });
      },
    } as Tool;
  }
  return {
    ...tool,
    execute: async (input: unknown, execution: ToolExecutionOptions<unknown>) => {
      const run = await claimRun(guard, execution);
      if ('taken' in run) return run.taken;
      let output: unknown;
      try {
        output = await execute(input, execution);
      } catch (error) {
        await record(input, execution, run, { error });
        throw error;
      }
      await record(input, execution, run, { output });
      return output;
    },
  } as Tool;
}

/** Where a run's result goes: the stored turn of an approved call, or the step the call was just made in (if any). */
type Run = { readonly turnId: string } | { readonly step: ReturnType<typeof toolCallStep> } | { readonly taken: Promise<unknown> };
type ClaimedRun = Exclude<Run, { taken: Promise<unknown> }>;
type RunOutcome = { readonly output: unknown } | { readonly error: unknown };

/**
 * An approved call, made in an earlier request, is claimed by storing its approval under a key of its own before the
 * tool runs; a request that finds the key taken gets the other run's result instead. A call the model just made
 * needs no claim: no other request can hold it yet.
 */
async function claimRun(guard: Guard, { toolCallId, messages, abortSignal }: ToolExecutionOptions<unknown>): Promise<Run> {
  const approval = approvalOf(messages, toolCallId);
  if (approval === undefined) return { step: toolCallStep(guard.conversationId, toolCallId) };
  const history = await guard.memory.read(guard.conversationId, { keepOpenToolCalls: true, omitTurnView: true, abortSignal });
  const call = history.findLast((entry) => entryCalls(entry, toolCallId));
  if (call === undefined) {
    throw new AdvisorArgumentError({
      component: COMPONENT,
      argument: 'messages',
      message: `tool call ${toolCallId} is not stored in conversation ${guard.conversationId}, so it cannot be approved here`,
    });
  }
  const { turnId } = call.metadata;
  try {
    const { outcome } = await guard.memory.appendTurn(guard.conversationId, [{ role: 'tool', content: [approval] }], {
      key: scopedAppendKey(turnId, 'run', [toolCallId]),
      metadata: { turnId },
      abortSignal,
    });
    if (outcome === 'stored') return { turnId };
  } catch (error) {
    if (!(error instanceof AppendConflictError)) throw error;
  }
  return { taken: resultOfOtherRun(guard, toolCallId, abortSignal) };
}

/** Keeps the result: in this process for the middleware's continuation, and in memory right after the call's step. */
async function recordRun(
  guard: Guard,
  {
    name,
    tool,
    input,
    execution: { toolCallId, abortSignal },
    run,
    outcome,
  }: { name: string; tool: Tool; input: unknown; execution: ToolExecutionOptions<unknown>; run: ClaimedRun; outcome: RunOutcome },
): Promise<void> {
  // An aborted run is closed by the middleware (`interrupted`), not recorded.
  if (abortSignal?.aborted) return;
  const failed = 'error' in outcome;
  const output = (await createToolModelOutput({
    toolCallId,
    input,
    output: failed ? outcome.error : outcome.output,
    tool,
    errorMode: failed ? 'text' : 'none',
  })) as ToolResultPart['output'];
  recordToolResult(guard.conversationId, toolCallId, output);
  let turnId: string;
  if ('turnId' in run) turnId = run.turnId;
  else {
    if (run.step === undefined) return;
    // The result must follow its call in memory: the call's step is stored when its after hooks end.
    const stored = await run.step.stored.then(
      () => true,
      () => false,
    );
    if (!stored) return;
    turnId = run.step.turnId;
  }
  const result: ToolResultPart = { type: 'tool-result', toolCallId, toolName: name, output };
  // The tool has run: a store that fails now must not turn its result into an error the model would retry. Without
  // the record, the next request is handled as if the server had not guarded the tool.
  await guard.memory
    .appendTurn(guard.conversationId, [{ role: 'tool', content: [result] }], {
      key: scopedAppendKey(turnId, 'result', [toolCallId]),
      metadata: { turnId },
    })
    .catch(() => undefined);
}

/** Waits for the result another request's run of the call stores, and gives it back as the tool's own output. */
async function resultOfOtherRun(guard: Guard, toolCallId: string, abortSignal: AbortSignal | undefined): Promise<unknown> {
  const deadline = Date.now() + guard.waitForRunMs;
  for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
    const history = await guard.memory.read(guard.conversationId, { keepOpenToolCalls: true, omitTurnView: true, abortSignal });
    const output = storedResult(history, toolCallId);
    if (output !== undefined) return toolOutput(output, toolCallId);
    if (Date.now() + delay > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
    abortSignal?.throwIfAborted();
  }
  throw runElsewhere(toolCallId, 'and has not finished');
}

/** The tool's own output for a stored model output, as the AI SDK would turn it back into the same one. */
function toolOutput(output: ToolResultPart['output'], toolCallId: string): unknown {
  switch (output.type) {
    case 'json':
    case 'text':
      return output.value;
    case 'error-text':
      throw new Error(output.value);
    default:
      throw runElsewhere(toolCallId, `and produced a ${output.type} result`);
  }
}

function runElsewhere(toolCallId: string, what: string): ComponentError {
  return new ComponentError({
    component: COMPONENT,
    operation: `run of tool call ${toolCallId}`,
    message: `another request (a double submit?) runs this approved call ${what}; it runs once, there`,
  });
}

/** The approval response for the call, when the call was made (and approved) in an earlier request. */
function approvalOf(messages: readonly ModelMessage[], toolCallId: string): ApprovalResponse | undefined {
  const call = messages.find(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId),
  );
  if (call === undefined || typeof call.content === 'string') return undefined;
  const request = call.content.find((part) => part.type === 'tool-approval-request' && part.toolCallId === toolCallId);
  if (request?.type !== 'tool-approval-request') return undefined;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-response' && part.approvalId === request.approvalId && part.approved) return part;
    }
  }
  return undefined;
}

function entryCalls({ message }: MemoryEntry, toolCallId: string): boolean {
  return (
    message.role === 'assistant' &&
    typeof message.content !== 'string' &&
    message.content.some((part) => part.type === 'tool-call' && part.toolCallId === toolCallId)
  );
}

function storedResult(history: readonly MemoryEntry[], toolCallId: string): ToolResultPart['output'] | undefined {
  for (const { message } of history) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result' && part.toolCallId === toolCallId) return part.output;
  }
  return undefined;
}
