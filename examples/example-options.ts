import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What every example's `main()` takes, so the smoke tests can run it offline and read what it printed. */
export interface ExampleOptions {
  /** Environment variables to read (`OPENAI_API_KEY`, ...). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the output goes. Default: standard output. */
  readonly write?: (text: string) => void;
}

export const writeToStdout = (text: string): void => {
  process.stdout.write(text);
};

/** True when the module at `moduleUrl` was started directly (`tsx examples/x.ts`), not imported. */
export function isEntryPoint(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (started === undefined) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
