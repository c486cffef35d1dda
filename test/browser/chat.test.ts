import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = path.join(ROOT, 'examples', 'nextjs');
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
const SCREENSHOT = path.join(ROOT, 'test-results', 'browser-chat.png');

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `\n!!! test/browser SKIPPED: ${CHROMIUM} is not installed. Install Debian's chromium ` +
      '(apt-get install -y --no-install-recommends chromium) to run the Next.js browser test; CI installs it.\n',
  );
}

// The app must answer with the offline stand-in model whatever the developer's environment holds.
const appEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'NODE_OPTIONS'].includes(name)),
);
const env = { ...appEnv, NEXT_TELEMETRY_DISABLED: '1' };

describe.skipIf(!hasChromium)('Next.js example in headless Chromium', () => {
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    // The app uses the library through the workspace package, whose exports point at `dist/`.
    await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], ROOT);
    await run(process.execPath, [NEXT_BIN, 'build'], APP);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(port)], {
      cwd: APP,
      env,
      detached: true,
      stdio: 'pipe',
    });
    await waitForHttp(baseUrl, server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  });

  it('streams an answer with its sources, then answers a follow-up from memory', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);

    await ask(page, 'Who is Helena Marsh?');
    const first = page.getByTestId('message-assistant').nth(0);
    await expect.poll(() => first.getByTestId('message-text').textContent(), { timeout: 30_000 }).toContain('born 12 April 1957');
    await expect.poll(() => first.getByTestId('metadata').textContent(), { timeout: 30_000 }).toMatch(/\d+ ms · \d+ tokens/);
    expect(await first.getByTestId('message-text').textContent()).toMatch(
      /^\[offline stand-in model\] From the provided documents: Helena Marsh/,
    );
    const sources = await first.getByTestId('sources').locator('li').allTextContents();
    expect(sources[0]).toMatch(/^Helena Marsh: a biography · score 1\.00$/);
    expect(sources.every((source) => source.startsWith('Helena Marsh: a biography'))).toBe(true);

    // "she" is only resolvable through the conversation: no passage passes the reranker, memory answers.
    await ask(page, 'How old is she?');
    const second = page.getByTestId('message-assistant').nth(1);
    await expect.poll(() => second.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    const followUp = await second.getByTestId('message-text').textContent();
    expect(followUp).toMatch(/^\[offline stand-in model\] From our conversation: .*born 12 April 1957/);
    expect(await second.getByTestId('sources').count()).toBe(0);

    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  }, 120_000);
});

async function ask(page: Page, question: string): Promise<void> {
  const before = await page.getByTestId('message-assistant').count();
  await page.getByTestId('chat-input').fill(question);
  await page.getByTestId('send').click();
  await page.getByTestId('message-assistant').nth(before).waitFor({ timeout: 30_000 });
}

function run(command: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `${path.basename(args[0] ?? command)} ${args.slice(1).join(' ')} failed (${code}) in ${cwd}:\n${output.slice(-4000)}`,
            ),
          ),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer on ${url} within 60 s:\n${output}`);
}
