import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = path.join(ROOT, 'examples', 'nextjs');
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
const ARTIFACTS = path.join(ROOT, 'test-results');
const SCREENSHOT = path.join(ARTIFACTS, 'browser-chat.png');
const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

const hasChromium = existsSync(CHROMIUM);
/** Resumable streams need Redis: the app keeps running answers there only when REDIS_URL is set. */
const hasRedis = (process.env.REDIS_URL ?? '') !== '';
if (hasChromium && !hasRedis) {
  console.warn('Next.js example: skipping the resumable-stream step (a reload reconnects to a running answer): REDIS_URL is not set.');
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

  it('streams an answer with its sources, answers a multi-line follow-up from memory, and a reload shows both as they were', async () => {
    // One browser profile (one user, by its cookie), where the chat is opened again in another tab below.
    const profile = await browser!.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await profile.newPage();
    await page.goto(baseUrl);
    await page.getByTestId('chat-input').waitFor();

    // An empty chat: the composer has the focus, and suggestions offer a first question.
    await page.getByTestId('empty-state').waitFor();
    expect(await focusedTestId(page)).toBe('chat-input');
    expect(await page.getByTestId('suggestion').allTextContents()).toContain('Who is Helena Marsh?');
    await expectAccessible(page, 'empty chat, desktop');
    await page.getByTestId('suggestion').filter({ hasText: 'Who is Helena Marsh?' }).click();
    await page.getByTestId('message-assistant').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('empty-state').count()).toBe(0);

    const first = page.getByTestId('message-assistant').nth(0);
    await expect.poll(() => first.getByTestId('message-text').textContent(), { timeout: 30_000 }).toContain('born 12 April 1957');
    await expect.poll(() => first.getByTestId('metadata').textContent(), { timeout: 30_000 }).toMatch(/\d+ ms · \d+ tokens/);
    expect(await first.getByTestId('message-text').textContent()).toMatch(
      /^\[offline stand-in model\] From the provided documents: Helena Marsh/,
    );
    const sources = await first.getByTestId('source-label').allTextContents();
    expect(sources[0]).toMatch(/^Helena Marsh: a biography · score 1\.00$/);
    expect(sources.every((source) => source.startsWith('Helena Marsh: a biography'))).toBe(true);
    const firstMetadata = await first.getByTestId('metadata').textContent();

    // The composer is multi-line: Shift+Enter starts a new line, Enter sends.
    const input = page.getByTestId('chat-input');
    await input.focus();
    await page.keyboard.type('How old');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('is she?');
    expect(await input.inputValue()).toBe('How old\nis she?');
    expect(await page.getByTestId('message-user').count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.getByTestId('message-assistant').nth(1).waitFor({ timeout: 30_000 });
    expect(await input.inputValue()).toBe('');
    // "she" is only resolvable through the conversation: no passage passes the reranker, memory answers.
    const second = page.getByTestId('message-assistant').nth(1);
    await expect.poll(() => second.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    const followUp = await second.getByTestId('message-text').textContent();
    expect(followUp).toMatch(/^\[offline stand-in model\] From our conversation: .*born 12 April 1957/);
    expect(await second.getByTestId('sources').count()).toBe(0);
    // The question shows its two lines.
    expect(
      await page
        .getByTestId('message-user')
        .nth(1)
        .getByTestId('message-text')
        .evaluate((text) => (text as HTMLElement).innerText),
    ).toBe('How old\nis she?');

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await expectAccessible(page, 'answered chat, desktop');

    // The conversation is in the URL: a reload, or the link opened in another tab, shows it again from the server's
    // memory, with the sources and the latency/token lines the page showed.
    const link = page.url();
    expect(new URL(link).searchParams.get('id')).toMatch(/^[0-9a-f-]{36}$/);
    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId('message-user').allTextContents()).toEqual(['YouWho is Helena Marsh?', 'YouHow old\nis she?']);
    expect(await page.getByTestId('message-assistant').nth(1).getByTestId('message-text').textContent()).toBe(followUp);
    expect(await page.getByTestId('message-assistant').nth(0).getByTestId('source-label').allTextContents()).toEqual(sources);
    expect(await page.getByTestId('message-assistant').nth(0).getByTestId('metadata').textContent()).toBe(firstMetadata);
    expect(await page.getByTestId('metadata').count()).toBe(2);
    const elsewhere = await profile.newPage();
    await elsewhere.goto(link);
    await expect.poll(() => elsewhere.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    // And the restored conversation goes on with its memory.
    await ask(elsewhere, 'How old is she?');
    await expect
      .poll(() => elsewhere.getByTestId('message-assistant').nth(2).getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toMatch(/From our conversation: .*born 12 April 1957/);
    await elsewhere.close();
    // Another browser (another user) opening the link gets an empty chat: conversations are scoped to their user.
    const stranger = await browser!.newPage();
    await stranger.goto(link);
    await stranger.getByTestId('empty-state').waitFor({ timeout: 30_000 });
    expect(await stranger.getByTestId('message-user').count()).toBe(0);
    await stranger.close();

    // "New chat" starts an empty conversation under a new id.
    await page.getByTestId('new-chat').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('id'), { timeout: 30_000 }).not.toBe(new URL(link).searchParams.get('id'));
    await page.getByTestId('chat-input').waitFor();
    expect(await page.getByTestId('message-assistant').count()).toBe(0);
    await profile.close();
  }, 120_000);

  it("lists the user's chats in a sidebar, newest first, and renames and deletes them", async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);
    await page.getByTestId('threads').waitFor();
    expect(await page.getByTestId('thread').count()).toBe(0);
    await ask(page, 'Who is Helena Marsh?');
    await expect.poll(() => page.getByTestId('thread-link').allTextContents(), { timeout: 30_000 }).toEqual(['Who is Helena Marsh?']);
    expect(await page.getByTestId('thread-link').getAttribute('aria-current')).toBe('page');
    const firstChat = page.url();

    await page.getByTestId('new-chat').click();
    await page.getByTestId('empty-state').waitFor({ timeout: 30_000 });
    await ask(page, 'Can I get a refund from Brightwater Notes?');
    await expect
      .poll(() => page.getByTestId('thread-link').allTextContents(), { timeout: 30_000 })
      .toEqual(['Can I get a refund from Brightwater Notes?', 'Who is Helena Marsh?']);
    await expectAccessible(page, 'sidebar with two chats, desktop');

    // Rename the first chat; the new title stays after a reload.
    await page.getByRole('button', { name: 'Rename “Who is Helena Marsh?”' }).click();
    await page.getByTestId('thread-title').fill('Helena, the surveyor');
    await page.getByTestId('thread-title').press('Enter');
    await expect
      .poll(() => page.getByTestId('thread-link').allTextContents(), { timeout: 10_000 })
      .toEqual(['Can I get a refund from Brightwater Notes?', 'Helena, the surveyor']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'browser-chat-sidebar.png'), fullPage: true });

    // Opening it from the sidebar shows that chat.
    await page.getByTestId('thread-link').filter({ hasText: 'Helena, the surveyor' }).click();
    await expect.poll(() => page.url(), { timeout: 30_000 }).toBe(firstChat);
    await expect.poll(() => page.getByTestId('message-user').allTextContents(), { timeout: 30_000 }).toEqual(['YouWho is Helena Marsh?']);

    // Delete the other one: it leaves the list, and its link shows an empty chat.
    await expect.poll(() => page.getByTestId('thread-link').count(), { timeout: 10_000 }).toBe(2);
    const [other] = await page.getByTestId('thread-link').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    await page.getByRole('button', { name: 'Delete “Can I get a refund from Brightwater Notes?”' }).click();
    await expect.poll(() => page.getByTestId('thread-link').allTextContents(), { timeout: 10_000 }).toEqual(['Helena, the surveyor']);
    await page.goto(other!);
    await page.getByTestId('empty-state').waitFor({ timeout: 30_000 });
    await page.close();
  }, 120_000);

  it('runs a server tool, a client tool answered in the page, and approvals approved and denied, each followed by a turn that works', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);
    const answer = (index: number) => page.getByTestId('message-assistant').nth(index).getByTestId('message-text');

    // Server tool: runs on the server, its result goes back to the model in the same request.
    await ask(page, 'What time is it?');
    await expect.poll(() => page.getByTestId('tool-currentTime').getAttribute('data-state'), { timeout: 30_000 }).toBe('output-available');
    await expect.poll(() => answer(0).textContent(), { timeout: 30_000 }).toMatch(/currentTime answered \{"time":"\d{4}-/);
    // A tool call reads as a card: what it does, where it stands, its result as fields (not raw JSON).
    const timeCard = page.getByTestId('tool-currentTime');
    expect(await timeCard.getByTestId('call-state').textContent()).toBe('Done');
    expect(await timeCard.locator('.tool-name').textContent()).toBe('Check the server time');
    expect(await timeCard.locator('dt').allTextContents()).toEqual(['time']);
    expect(await timeCard.textContent()).not.toContain('{');

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

    // Approval, approved: the server runs the tool only now. While it waits, Approve/Deny are the only way on: no Retry.
    await ask(page, 'Please delete my notes');
    await page.getByTestId('approve').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('tool-deleteNotes').getByTestId('call-state').textContent()).toBe('Needs your approval');
    expect(await page.getByTestId('retry').count()).toBe(0);
    await expectAccessible(page, 'approval requested, desktop');
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
    await page.screenshot({ path: path.join(ARTIFACTS, 'browser-chat-tools.png'), fullPage: true });
    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(5);
    expect(
      await page.locator('[data-testid^="tool-"]').evaluateAll((tools) => tools.map((tool) => tool.getAttribute('data-state'))),
    ).toEqual(['output-available', 'output-available', 'output-available', 'output-denied']);

    // A pending approval the user passes by with another question no longer offers buttons that would do nothing.
    await ask(page, 'Please delete my notes');
    await page.getByTestId('approve').waitFor({ timeout: 30_000 });
    await ask(page, 'Who is Helena Marsh?');
    await expect.poll(() => answer(6).textContent(), { timeout: 30_000 }).toContain('born 12 April 1957');
    expect(await page.getByTestId('approve').count()).toBe(0);
    expect(await page.getByTestId('message-assistant').nth(5).getByTestId('call-state').textContent()).toBe('Not answered');

    // A failure shows the error above the input bar, in view in a long conversation, and marks the question unanswered.
    await ask(page, 'Please make an error', { answered: false });
    await page.getByTestId('chat-error').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('chat-error').textContent()).toMatch(
      /^Your question was not answered: Something went wrong\. Please try again\./,
    );
    expect(await isInViewport(page.getByTestId('chat-error'))).toBe(true);
    expect(await page.getByTestId('chat-input').inputValue()).toBe('');
    await page.getByTestId('message-user').last().getByTestId('failed').waitFor();
    // No empty answer bubble under it: the failed question is the last thing in the conversation.
    expect(await page.locator('article.message').last().getAttribute('data-testid')).toBe('message-user');
    await page.screenshot({ path: path.join(ARTIFACTS, 'browser-chat-error.png') });
    await expectAccessible(page, 'server failure, desktop');
    // The server logged it with a stack that names the source file and line, not a minified chunk.
    await expect
      .poll(() => serverLog, { timeout: 10_000 })
      .toContain('chat-route: stream failed: Error: The offline model was asked to fail.');
    expect(serverLog).toMatch(/at .*\(lib\/offline-tool-model\.ts:\d+:\d+\)/);
    await ask(page, 'When did Helena Marsh retire?');
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toContain('retired from the Survey Office in 2019');
    expect(await page.getByTestId('chat-error').count()).toBe(0);

    // A question over the size limit: the server's reason is shown, the text is not put back, and the chat goes on.
    const usersBefore = await page.getByTestId('message-user').count();
    await page.getByTestId('chat-input').fill('x'.repeat(1_000_001));
    await page.getByTestId('send').click();
    await page.getByTestId('chat-error').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('chat-error').textContent()).toMatch(
      /^Your message was not sent: .*is too large \(\d+ characters; limits\.maxMessageSize is 1000000\)$/,
    );
    expect(await isInViewport(page.getByTestId('chat-error'))).toBe(true);
    expect(await page.getByTestId('chat-input').inputValue()).toBe('');
    expect(await page.getByTestId('message-user').count()).toBe(usersBefore);
    await expectAccessible(page, 'rejected question, desktop');
    const next = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/chat'));
    await ask(page, 'Can I get a refund from Brightwater Notes?');
    expect((await next).postData()!.length).toBeLessThan(100_000);
    await expect.poll(() => page.getByTestId('message-assistant').last().getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('chat-error').count()).toBe(0);

    // A reload shows what the page showed: the failed question stays marked unanswered.
    await page.reload();
    await expect.poll(() => page.getByTestId('message-user').count(), { timeout: 30_000 }).toBe(usersBefore + 1);
    expect(await page.getByTestId('message-user').filter({ hasText: 'Please make an error' }).getByTestId('failed').count()).toBe(1);
    // The approval passed by offers no button that would do nothing.
    expect(await page.getByTestId('approve').count()).toBe(0);
    await page.close();
  }, 180_000);

  it('stops an answer mid-stream, marks it interrupted (also after a reload), and the next question works', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(baseUrl);
    await ask(page, 'Tell me a long story', { answered: false });
    // Before the first word, the page says it is waiting.
    await page.getByTestId('thinking').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('status').textContent()).toBe('Thinking…');
    const story = page.getByTestId('message-assistant').nth(0);
    await expect.poll(() => story.getByTestId('message-text').textContent(), { timeout: 30_000 }).toContain('2th time');
    await page.getByTestId('stop').click();
    await story.getByTestId('interrupted').waitFor({ timeout: 10_000 });
    // The server stops a moment later; the page then shows the answer as memory stored it, so a reload adds no words.
    const storedStory = () =>
      page.evaluate(async () => {
        const id = new URL(window.location.href).searchParams.get('id');
        const body = (await (await fetch(`/api/chat?id=${id}`)).json()) as { messages: { parts: { type: string; text?: string }[] }[] };
        return body.messages[1]?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      });
    const sameAsStored = async () => {
      const [shown, stored] = [(await story.getByTestId('message-text').textContent())?.trim(), (await storedStory())?.trim()];
      return shown === stored ? 'same' : `shown …${shown?.slice(-60)} | stored …${stored?.slice(-60)}`;
    };
    await expect.poll(sameAsStored, { timeout: 10_000 }).toBe('same');
    const partial = await story.getByTestId('message-text').textContent();
    expect(partial).not.toContain('100th time');
    await story.getByTestId('interrupted').waitFor();

    await ask(page, 'Who is Helena Marsh?');
    await expect
      .poll(() => page.getByTestId('message-assistant').nth(1).getByTestId('message-text').textContent(), { timeout: 30_000 })
      .toContain('born 12 April 1957');
    await page.reload();
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    await page.getByTestId('message-assistant').nth(0).getByTestId('interrupted').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('message-assistant').nth(1).getByTestId('interrupted').count()).toBe(0);
    expect(await page.getByTestId('message-assistant').nth(0).getByTestId('message-text').textContent()).toBe(partial);

    // Stop has its own place: a double-click on Send sends once and never stops the answer.
    await page.getByTestId('chat-input').fill('When did Helena Marsh retire?');
    await page.getByTestId('send').dblclick();
    await expect.poll(() => page.getByTestId('message-assistant').nth(2).getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('message-assistant').nth(2).getByTestId('message-text').textContent()).toContain('2019');
    expect(await page.getByTestId('message-assistant').nth(2).getByTestId('interrupted').count()).toBe(0);
    expect(await page.getByTestId('message-user').count()).toBe(3);
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    await page.close();
  }, 120_000);

  it.skipIf(!hasRedis)(
    'reconnects to a running answer after a reload (resumable streams on Redis), and stores it whole',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
      await page.goto(baseUrl);
      await ask(page, 'Tell me a long story', { answered: false });
      const story = () => page.getByTestId('message-assistant').nth(0).getByTestId('message-text');
      await expect.poll(() => story().textContent(), { timeout: 30_000 }).toContain('3th time');
      await page.reload();
      // The question and the answer so far are back at once, and the answer goes on to its end.
      await expect.poll(() => page.getByTestId('message-user').allTextContents(), { timeout: 30_000 }).toEqual(['YouTell me a long story']);
      await expect.poll(() => story().textContent(), { timeout: 30_000 }).toContain('5th time');
      expect(await page.getByTestId('stop').count()).toBe(1);
      await expect.poll(() => story().textContent(), { timeout: 40_000 }).toContain('100th time');
      await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(1);
      expect(await page.getByTestId('interrupted').count()).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'browser-chat-resumed.png'), fullPage: true });
      // Memory stored the whole answer: a reload now shows it from memory, once.
      await page.reload();
      await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(1);
      expect(await story().textContent()).toContain('100th time');
      expect(await page.getByTestId('message-user').count()).toBe(1);
      expect(await page.getByTestId('interrupted').count()).toBe(0);
      await page.close();
    },
    120_000,
  );

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
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await page.goto(baseUrl);
    await page.getByTestId('empty-state').waitFor();
    await expectAccessible(page, 'empty chat, phone');

    // Markdown as models write it: a GFM table, a wide code block that scrolls (and takes the focus to be scrolled
    // with the keyboard) with a copy button, and a link that opens in a new tab.
    await ask(page, 'Show me Markdown');
    const markdown = page.getByTestId('message-assistant').last().getByTestId('message-text');
    await markdown.locator('table').waitFor({ timeout: 30_000 });
    expect(await markdown.locator('th').allTextContents()).toEqual(['Document', 'Topic']);
    expect(await markdown.textContent()).not.toContain('| ---');
    const code = markdown.locator('pre');
    expect(await code.getAttribute('tabindex')).toBe('0');
    expect(await code.evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
    const link = markdown.locator('a[href="https://ai-sdk.dev/docs"]');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await markdown.getByTestId('copy-code').click();
    await expect.poll(() => markdown.getByTestId('copy-code').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^const line = 'a wide line of code/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'browser-chat-markdown-phone.png'), fullPage: true });
    await expectAccessible(page, 'Markdown answer, phone');

    await ask(page, `Is ${'x'.repeat(400)} a word?`);
    await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(2);
    // Three answers later the newest one is in view above the input bar: the page follows the conversation.
    for (const [index, question] of [
      'Who is Helena Marsh?',
      'When did Helena Marsh retire?',
      'Can I get a refund from Brightwater Notes?',
    ].entries()) {
      await ask(page, question);
      await expect.poll(() => page.getByTestId('metadata').count(), { timeout: 30_000 }).toBe(index + 3);
    }
    const newest = await page.getByTestId('message-assistant').last().boundingBox();
    const inputBar = await page.locator('.composer').boundingBox();
    expect(newest!.y + newest!.height).toBeLessThanOrEqual(inputBar!.y + 1);
    expect(newest!.y + newest!.height).toBeGreaterThan(0);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(notFound).toEqual([]);
    expect(await page.locator('link[rel="icon"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'browser-chat-phone.png'), fullPage: true });
    await expectAccessible(page, 'long chat, phone');
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

async function focusedTestId(page: Page): Promise<string | null | undefined> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
}

/** Whether the whole element is inside the viewport (not scrolled away, not under anything fixed is not checked). */
async function isInViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth && box.height > 0;
  });
}

/** axe-core's scan of the page as it stands: no serious or critical violation. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const { violations } = await (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact?: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe on ${state}`).toEqual([]);
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
