import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ChatMemory } from '../../src/memory/chat-memory.ts';
import { renderMessage } from '../../src/memory/render-message.ts';

/**
 * Records every unhandled promise rejection while the suite runs and fails the
 * suite at the end if there was one: a fault must surface as a typed error or
 * a recorded fallback, never as a rejection nobody awaited.
 */
export function failOnUnhandledRejections(): void {
  const seen: unknown[] = [];
  const record = (reason: unknown) => void seen.push(reason);
  beforeAll(() => void process.on('unhandledRejection', record));
  afterAll(async () => {
    // Rejections are reported after the microtask queue drains.
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('unhandledRejection', record);
    expect(seen).toEqual([]);
  });
}

/** The conversation's stored messages as `role: text` lines, marked when the turn was interrupted. */
export async function storedTurns(memory: ChatMemory, conversationId: string): Promise<string[]> {
  const entries = await memory.read(conversationId);
  return entries.map(
    ({ message, metadata }) =>
      `${renderMessage(message)}${metadata.interrupted ? ' [interrupted]' : ''}${metadata.failed ? ' [failed]' : ''}`,
  );
}

/** Walks `error.cause` and returns the first error naming `component`, if any. */
export function componentInChain(error: unknown, component: string): (Error & { component: string }) | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { component?: unknown }).component === component) return current as Error & { component: string };
  }
  return undefined;
}

/** How a scenario script exited, and what it printed. */
export interface ScenarioExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a scenario script (TypeScript, through tsx) in a process of its own and waits for it to exit on its own, or
 * kills it after `killAfterMs`: a scenario that leaves a timer or a socket behind never exits, and shows as killed.
 * `onStdout` sees the output so far whenever it grows; `nodeArgs` go to Node before the script (e.g. a heap limit).
 */
export function runScenario(
  script: string,
  args: readonly string[],
  { killAfterMs, onStdout, nodeArgs = [] }: { killAfterMs: number; onStdout?: (stdout: string) => void; nodeArgs?: readonly string[] },
): Promise<ScenarioExit> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    onStdout?.(stdout);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const deadline = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}
