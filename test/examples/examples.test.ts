import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main as advancedRag } from '../../examples/advanced-rag.ts';
import { main as customAdvisor } from '../../examples/custom-advisor.ts';
import { main as evaluateRagExample } from '../../examples/evaluate-rag.ts';
import { DEMO_QUESTIONS, main as demo } from '../../examples/demo.ts';
import { main as memory } from '../../examples/memory.ts';
import { main as middleware } from '../../examples/advisor-middleware.ts';
import { main as qdrant } from '../../examples/qdrant.ts';
import { main as questionAnswerRag } from '../../examples/question-answer-rag.ts';
import { main as quickStart } from '../../examples/quick-start.ts';
import { main as rerankRag } from '../../examples/rerank-rag.ts';
import { OFFLINE_MODEL_LABEL } from '../../src/offline/index.ts';
import { startOpenAIFixture, type FixtureRequest, type OpenAIFixtureReply } from '../fixtures/openai-fixture-server.ts';
import { startQdrantFixture } from '../fixtures/qdrant-fixture-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an example offline (no API keys, whatever the environment holds) and collects what it printed. */
async function runOffline<T>(
  main: (options: { env: Record<string, string>; write: (text: string) => void }) => Promise<T>,
  env: Record<string, string> = {},
) {
  let output = '';
  const result = await main({ env, write: (text) => (output += text) });
  return { result, output };
}

/** The source titles printed under the answer that follows `question`. */
function sourcesAfter(output: string, question: string): string[] {
  const turn = output.slice(output.indexOf(`You: ${question}`)).split('\nYou: ')[0];
  return [...turn.matchAll(/^ {2}\[\d+\] (.+?)(?: \(score [\d.]+\))?$/gm)].map((match) => match[1]);
}

describe('examples run offline with the stand-in model', () => {
  it('quick start answers from the retrieved passage and lists it as the source', async () => {
    const { result, output } = await runOffline(quickStart);
    expect(result.startsWith(OFFLINE_MODEL_LABEL)).toBe(true);
    expect(result).toContain('based in Aberdeen');
    expect(output).toContain('source: Fleet list: The research vessel Kittiwake');
  });

  it('memory: the follow-up "How old is he?" is answered only when the earlier turn is remembered', async () => {
    const { result } = await runOffline(memory);
    expect(result.withMemory).toContain('born on 2 March 1950');
    expect(result.withoutMemory).not.toContain('1950');
    expect(result.withoutMemory).toContain('nothing to quote');
  });

  it('question-answer RAG answers from the sample documents, honours the per-call filter and skips the unanswerable', async () => {
    const { result, output } = await runOffline(questionAnswerRag);
    expect(result[0]).toContain('University of Edinburgh');
    expect(result[1]).toContain('6 euros per month');
    const filtered = sourcesAfter(output, 'How much does the Plus plan cost?');
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((title) => title.startsWith('Brightwater Notes: terms of use'))).toBe(true);
    expect(result[2]).toBe('The documents say nothing about that.');
  });

  it('rerank RAG falls back to the local reranker without a Cohere key and keeps only relevant passages', async () => {
    const { result, output } = await runOffline(rerankRag);
    expect(output).toContain('Reranker: term-coverage (local stand-in');
    expect(result[0]).toContain('refunded pro rata');
    expect(result[1]).toContain('In 1994 she published The Tidal Atlas');
    expect(sourcesAfter(output, 'When did Helena Marsh publish her tidal atlas?')).toEqual(['Helena Marsh: a biography › Career']);
  });

  it('advanced RAG compresses the follow-up with the conversation and routes each query to the right source', async () => {
    const { result, output } = await runOffline(advancedRag);
    expect(output).toContain('queries "Where does Helena Marsh live now?" → routed to biography');
    expect(result[1]).toContain('lives in Stromness');
    expect(output).toContain('routed to terms-of-use');
    expect(result[2]).toContain('refunded pro rata');
  });

  it('custom advisors run by order and report through the metadata', async () => {
    const { result, output } = await runOffline(customAdvisor);
    expect(output).toContain('Chain (outermost first): today (-200) → message-memory (-100) → question-answer (0) → answer-stats (100)');
    expect(output).toMatch(/Instructions the model saw: "Today is \d{4}-\d{2}-\d{2}\."/);
    expect(result).toMatchObject({ sources: 2, outcome: 'finished' });
    expect(result.words).toBeGreaterThan(10);
  });

  it('advisorMiddleware adds memory and RAG to plain streamText calls', async () => {
    const { result, output } = await runOffline(middleware);
    expect(result[0]).toContain('lives in Stromness');
    expect(result[1]).toContain('Owen Achterberg');
    expect(output).toContain('source: Helena Marsh: a biography');
  });

  it('Qdrant example tells how to run it without QDRANT_URL', async () => {
    const { result, output } = await runOffline(qdrant);
    expect(result).toEqual([]);
    expect(output).toContain('Set QDRANT_URL');
  });

  it('Qdrant example ingests and answers with filters against a Qdrant API fixture', async () => {
    const fixture = await startQdrantFixture();
    try {
      const { result, output } = await runOffline(qdrant, { QDRANT_URL: fixture.url });
      expect(output).toContain('Ingested 14 chunks');
      expect(result[0]).toContain('6 euros per month');
      expect(sourcesAfter(output, 'Where did Helena Marsh study?').every((title) => title.startsWith('Helena Marsh'))).toBe(true);
      expect(fixture.violations).toEqual([]);
    } finally {
      await fixture.close();
    }
  });
});

describe('the demo', () => {
  it('answers the scripted conversation, the follow-up from memory', async () => {
    const { result, output } = await runOffline(demo);
    expect(result).toHaveLength(DEMO_QUESTIONS.length);
    expect(result[0]).toContain('Helena Marsh (born 12 April 1957');
    expect(result[1]).toMatch(/^\[offline stand-in model\] From our conversation: .*born 12 April 1957/);
    expect(output).toContain('nothing relevant found, so no documents were injected');
    expect(result[2]).toContain('refunded pro rata');
    expect(result[3]).toContain('deleted permanently after 30 days');
    expect(output).toMatch(/\d+ ms, \d+ tokens/);
    expect(output).toContain('Advisor chain, outermost first: metadata (-2500) → message-memory (-100) → rerank-rag (0)');
    expect(output).toContain('message-memory: sent 2 earlier messages with the question, stored the turn (2 messages)');
    expect(output).toMatch(/metadata: sent the page .*latencyMs/);
  });

  it('runs as `npm run demo` does and exits cleanly', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPENAI_')));
    const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [tsx, 'examples/demo.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.on('error', reject);
      child.on('exit', (exitCode) => resolve({ code: exitCode, stdout }));
    });
    expect(code).toBe(0);
    expect(stdout).toContain('Model: offline stand-in model');
    expect(stdout).toContain('You: How old is she?');
    expect(stdout).toMatch(/Done in \d+\.\d s\./);
  });
});

describe('the RAG evaluation (`npm run eval`)', () => {
  it('offline: the same report on every run, with these figures on the sample data', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'eval-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const reportFile = path.join(directory, 'report.json');
    const first = await runOffline(evaluateRagExample);
    const second = await runOffline((options) => evaluateRagExample({ ...options, reportFile }));
    expect({ ...second.result, elapsedMs: 0 }).toEqual({ ...first.result, elapsedMs: 0 });
    expect(second.output).toBe(`${first.output}\nJSON report: ${reportFile}\n`);
    const { retrieval, quality, items } = first.result;
    expect(retrieval.queries).toBe(13);
    expect(retrieval.hitRate[1]).toBeCloseTo(12 / 13, 10);
    expect(retrieval.recall[3]).toBe(1);
    expect(quality['answer-relevancy']).toMatchObject({ judged: 14, failed: 0, passRate: 13 / 14, inputTokens: 3401, outputTokens: 363 });
    expect(quality['answer-relevancy'].meanScore).toBeCloseTo(0.86, 2);
    // The offline model only quotes its documents, so every claim is found in them.
    expect(quality.faithfulness).toMatchObject({ judged: 14, failed: 0, meanScore: 1, passRate: 1, inputTokens: 7593, outputTokens: 2701 });
    expect(items.at(-1)).toMatchObject({ id: 'student-discount', judgments: { 'answer-relevancy': { result: { passed: false } } } });
    expect(first.output).toContain('Judge: offline judge (word overlap: a lexical proxy, not a judgment)');
    expect(first.output).toMatch(/answer-relevancy\s+14\s+0\s+0\.860\s+0\.929/);
    const written = JSON.parse(await readFile(reportFile, 'utf8'));
    expect(written).toEqual({
      answeredBy: expect.stringContaining('offline stand-in model'),
      judgedBy: expect.stringContaining('offline judge'),
      ...JSON.parse(JSON.stringify(second.result)),
    });
  });

  it('with a key: the model answers and judges through @ai-sdk/openai; a judge reply that is not JSON fails that judgment only', async () => {
    const judged = (request: FixtureRequest): OpenAIFixtureReply | undefined => {
      const name: string | undefined = request.body.response_format?.json_schema?.name;
      const prompt = JSON.stringify(request.body.messages);
      if (name === 'answer-relevancy') {
        return prompt.includes('student discount')
          ? { type: 'text', text: 'I would rate this a 2 out of 10.' }
          : { type: 'text', text: JSON.stringify({ reason: 'It answers the question.', score: 0.75 }) };
      }
      if (name === 'faithfulness') {
        const claims = [{ claim: 'A claim.', supported: true, evidence: 'A sentence.' }];
        return { type: 'text', text: JSON.stringify({ claims, reason: 'Supported.' }) };
      }
      return { type: 'text', text: 'An answer from the documents [1].' };
    };
    const fixture = await startOpenAIFixture({ reply: judged });
    try {
      const { result, output } = await runOffline(evaluateRagExample, { OPENAI_API_KEY: fixture.apiKey, OPENAI_BASE_URL: fixture.baseURL });
      expect(fixture.violations).toEqual([]);
      expect(output).toContain('Judge: gpt-4o-mini at');
      expect(result.quality['answer-relevancy']).toMatchObject({ judged: 13, failed: 1, meanScore: 0.75, passRate: 1 });
      expect(result.quality.faithfulness).toMatchObject({ judged: 14, failed: 0, meanScore: 1 });
      expect(result.items.at(-1)!.judgments['answer-relevancy']).toMatchObject({ status: 'failed', error: { name: 'ComponentError' } });
      expect(output).toContain('student-discount: answer-relevancy judge failed: ');
      expect(fixture.requests.filter((request) => request.endpoint === 'embeddings').length).toBeGreaterThan(0);
    } finally {
      await fixture.close();
    }
  });
});
