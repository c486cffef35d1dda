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

// The app must answer with the offline stand-in model whatever the developer's environment holds.
const appEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'NODE_OPTIONS'].includes(name)),
);
const env = { ...appEnv, NEXT_TELEMETRY_DISABLED: '1' };

describe.skipIf(!hasChromium)('Next.js example in headless Chromium', () => {
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let baseUrl = '';
  /** What the app's server printed (chatRoute logs server-side failures there). */
  let serverLog = '';

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
    server.stdout?.on('data', (chunk: Buffer) => (serverLog += chunk));
    server.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk));
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
    await page.getByTestId('chat-input').waitFor();

    await ask(page, 'Who is Helena Marsh?');
    const first = page.getByTestId('message-assistant').nth(0);
    await expect.poll(() => first.getByTestId('message-text').textContent(), { timeout: 30_000 }).toContain('born 12 April 1957');
    await expect.poll(() => first.getByTestId('metadata').textContent(), { timeout: 30_000 }).toMatch(/\d+ ms · \d+ tokens/);
    expect(await first.getByTestId('message-text').textContent()).toMatch(
      /^\[offline stand-in model\] From the provided documents: Helena Marsh/,
    );
    const sources = await first.getByTestId('source-label').allTextContents();
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

    // The conversation is in the URL: a reload, or the link opened elsewhere, shows it again from the server's memory.
    const link = page.url();
    expect(new URL(link).searchParams.get('id')).toMatch(/^[0-9a-f-]{36}$/);
    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId('message-user').allTextContents()).toEqual(['YouWho is Helena Marsh?', 'YouHow old is she?']);
    expect(await page.getByTestId('message-assistant').nth(1).getByTestId('message-text').textContent()).toBe(followUp);
    const elsewhere = await browser!.newPage();
    await elsewhere.goto(link);
    await expect.poll(() => elsewhere.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    // And the restored conversation goes on with its memory.
    await ask(elsewhere, 'How old is she?');
    await expect
      .poll(() => elsewhere.getByTestId('message-assistant').nth(2).getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toMatch(/From our conversation: .*born 12 April 1957/);
    await elsewhere.close();

    // "New chat" starts an empty conversation under a new id.
    await page.getByTestId('new-chat').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('id'), { timeout: 30_000 }).not.toBe(new URL(link).searchParams.get('id'));
    await page.getByTestId('chat-input').waitFor();
    expect(await page.getByTestId('message-assistant').count()).toBe(0);
  }, 120_000);

  it('runs a server tool, a client tool answered in the page, and approvals approved and denied, each followed by a turn that works', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);
    const answer = (index: number) => page.getByTestId('message-assistant').nth(index).getByTestId('message-text');

    // Server tool: runs on the server, its result goes back to the model in the same request.
    await ask(page, 'What time is it?');
    await expect.poll(() => page.getByTestId('tool-currentTime').getAttribute('data-state'), { timeout: 30_000 }).toBe('output-available');
    await expect.poll(() => answer(0).textContent(), { timeout: 30_000 }).toMatch(/currentTime answered \{"time":"\d{4}-/);

    // Client tool: the page answers it; the turn continues on the server with the answer.
    await ask(page, 'Where am I?');
    await page.getByTestId('share-location').click();
    await expect.poll(() => answer(1).textContent(), { timeout: 30_000 }).toContain('getLocation answered {"city":"Lisbon"}');

    // Answers render as Markdown: the tool's name in bold, its output as code.
    expect(await page.getByTestId('message-assistant').nth(1).locator('[data-testid="message-text"] strong').textContent()).toBe(
      'getLocation',
    );
    expect(await page.getByTestId('message-assistant').nth(1).locator('[data-testid="message-text"] code').textContent()).toBe(
      '{"city":"Lisbon"}',
    );

    // Approval, approved: the server runs the tool only now.
    await ask(page, 'Please delete my notes');
    await page.getByTestId('approve').click();
    await expect.poll(() => answer(2).textContent(), { timeout: 30_000 }).toContain('deleteNotes answered {"folder":"drafts","deleted":3}');
    const approvedSources = await page.getByTestId('message-assistant').nth(2).getByTestId('source-label').allTextContents();
    expect(new Set(approvedSources).size).toBe(approvedSources.length);

    // Approval, denied: nothing runs, the model hears of the denial.
    await ask(page, 'Delete my notes again');
    await page.getByTestId('deny').click();
    await expect.poll(() => answer(3).textContent(), { timeout: 30_000 }).toContain('You declined deleteNotes; nothing was done.');

    // Each flow left the stored conversation valid: an ordinary question after them works, and a reload shows them all.
    await ask(page, 'Who is Helena Marsh?');
    await expect.poll(() => answer(4).textContent(), { timeout: 30_000 }).toContain('born 12 April 1957');
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'browser-chat-tools.png'), fullPage: true });
    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(5);
    expect(
      await page.locator('[data-testid^="tool-"]').evaluateAll((tools) => tools.map((tool) => tool.getAttribute('data-state'))),
    ).toEqual(['output-available', 'output-available', 'output-available', 'output-denied']);

    // A failure shows a styled error and puts the question back in the input; the next question is answered.
    await ask(page, 'Please make an error', { answered: false });
    await page.getByTestId('chat-error').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('chat-input').inputValue()).toBe('Please make an error');
    // The server logged it with a stack that names the source file and line, not a minified chunk.
    await expect
      .poll(() => serverLog, { timeout: 10_000 })
      .toContain('chat-route: stream failed: Error: The offline model was asked to fail.');
    expect(serverLog).toMatch(/at .*\(lib\/offline-tool-model\.ts:\d+:\d+\)/);
    await page.getByTestId('chat-input').fill('');
    await ask(page, 'When did Helena Marsh retire?');
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toContain('retired from the Survey Office in 2019');
    await page.close();
  }, 180_000);

  it('stops an answer mid-stream, marks it interrupted (also after a reload), and the next question works', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);
    await ask(page, 'Tell me a long story');
    const story = page.getByTestId('message-assistant').nth(0);
    await expect.poll(() => story.getByTestId('message-text').textContent(), { timeout: 30_000 }).toContain('2th time');
    await page.getByTestId('stop').click();
    await story.getByTestId('interrupted').waitFor({ timeout: 10_000 });
    const partial = await story.getByTestId('message-text').textContent();
    expect(partial).not.toContain('100th time');

    await ask(page, 'Who is Helena Marsh?');
    await expect
      .poll(() => page.getByTestId('message-assistant').nth(1).getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toContain('born 12 April 1957');
    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    await page.getByTestId('message-assistant').nth(0).getByTestId('interrupted').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('message-assistant').nth(1).getByTestId('interrupted').count()).toBe(0);
    await page.close();
  }, 120_000);

  it('Retry (regenerate) replaces the last answer: one answer on the page, one in memory after a reload, and the chat goes on', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);
    await ask(page, 'Who is Helena Marsh?');
    await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    // The server's copy of the conversation, as a reload reads it.
    const stored = () =>
      page.evaluate(async () => {
        const id = new URL(window.location.href).searchParams.get('id');
        const body = (await (await fetch(`/api/chat?id=${id}`)).json()) as { messages: { id: string; role: string }[] };
        return body.messages;
      });
    const [, firstAnswer] = await stored();

    const regenerated = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/chat'));
    await page.getByTestId('retry').click();
    expect((await regenerated).postDataJSON()).toMatchObject({ trigger: 'regenerate-message' });
    await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toContain('born 12 April 1957');

    // Memory holds the new answer in place of the first (the offline model words both alike).
    const afterRetry = await stored();
    expect(afterRetry.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(afterRetry[1].id).not.toBe(firstAnswer.id);

    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('message-user').count()).toBe(1);
    await ask(page, 'When did Helena Marsh retire?');
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toContain('2019');
    expect(await page.getByTestId('message-user').count()).toBe(2);
    await page.close();
  }, 120_000);

  it('fits a phone screen: no horizontal scroll from a long word, an icon instead of a favicon 404', async () => {
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 } });
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await page.goto(baseUrl);
    await ask(page, `Is ${'x'.repeat(400)} a word?`);
    await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    // Three answers later the newest one is in view above the input bar: the page follows the conversation.
    for (const [index, question] of [
      'Who is Helena Marsh?',
      'When did Helena Marsh retire?',
      'Can I get a refund from Brightwater Notes?',
    ].entries()) {
      await ask(page, question);
      await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(index + 2);
    }
    const newest = await page.getByTestId('message-assistant').last().boundingBox();
    const inputBar = await page.locator('form').boundingBox();
    expect(newest!.y + newest!.height).toBeLessThanOrEqual(inputBar!.y + 1);
    expect(newest!.y + newest!.height).toBeGreaterThan(0);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(notFound).toEqual([]);
    expect(await page.locator('link[rel="icon"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'browser-chat-phone.png'), fullPage: true });
    await page.close();
  }, 120_000);
});

async function ask(page: Page, question: string, { answered = true } = {}): Promise<void> {
  await page.getByTestId('chat-input').waitFor();
  const before = await page.getByTestId('message-assistant').count();
  await page.getByTestId('chat-input').fill(question);
  await page.getByTestId('send').click();
  if (answered) await page.getByTestId('message-assistant').nth(before).waitFor({ timeout: 30_000 });
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
