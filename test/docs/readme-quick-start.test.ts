import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { markdownSnippets } from './snippets.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it("the README's quick start runs as written, offline, and prints the answer and its sources", async () => {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Quick start\n'));
  const [quickStart] = markdownSnippets('README.md', section);
  // Inside the repository, so that `ai-advisors` resolves to the sources as the package would to its build.
  const folder = path.join(ROOT, '.snippets-run');
  await mkdir(folder, { recursive: true });
  const script = path.join(folder, 'quick-start.ts');
  await writeFile(script, quickStart.code);
  try {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, timeout: 60_000 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out, stderr: err }),
      ),
    );
    expect(stderr).toBe('');
    expect(stdout).toMatch(/Refunds take five days/);
    expect(stdout).toMatch(/Sources: \[ 'faq-1' \]/);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}, 90_000);
