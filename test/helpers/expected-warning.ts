import { expect, vi } from 'vitest';

/**
 * Runs `run` while a dependency is expected to write a warning to the console (the Qdrant client warns about an API key
 * over plain HTTP, cohere-ai about a response it cannot validate, pdf.js about a broken file): asserts that a warning
 * matching `pattern` was written, and keeps it out of the test run's output.
 */
export async function withExpectedWarning<Result>(pattern: RegExp, run: () => Promise<Result> | Result): Promise<Result> {
  const warnings: string[] = [];
  const spies = (['warn', 'log'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' '))),
  );
  try {
    const result = await run();
    expect(
      warnings.some((warning) => pattern.test(warning)),
      `a console warning matching ${pattern}, got ${JSON.stringify(warnings)}`,
    ).toBe(true);
    return result;
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
