import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSectionRagAdvisor } from '../../examples/nextjs/lib/section-retrieval.ts';

const DATA = fileURLToPath(new URL('../../examples/data', import.meta.url));

/** Questions a visitor of the example asks, and the section that answers each. */
const LABELLED_QUESTIONS: readonly { question: string; section: string }[] = [
  { question: 'Can I get a refund from Brightwater Notes?', section: 'termsOfUse#Refunds' },
  { question: 'When did Helena Marsh retire?', section: 'biography#Career' },
  { question: 'Who is Helena Marsh?', section: 'biography#intro' },
  { question: 'Where was Helena Marsh born?', section: 'biography#Early life' },
  { question: 'How much does the Plus plan of Brightwater Notes cost?', section: 'termsOfUse#Plans and billing' },
  { question: 'Where are my Brightwater notes stored?', section: 'termsOfUse#Your data' },
  { question: 'Can I use the Brightwater API for automated access?', section: 'termsOfUse#Acceptable use' },
  { question: 'What medal did Helena Marsh receive?', section: 'biography#Career' },
];

describe('retrieval of the Next.js example (offline: BM25 candidates, term-coverage reranker reading titles)', () => {
  it.each(LABELLED_QUESTIONS)('finds the section that answers "$question" among the sources', async ({ question, section }) => {
    const rag = await createSectionRagAdvisor({ dataDirectory: path.resolve(DATA) });
    const sources = await rag.retriever.retrieve(question);
    const sections = sources.map((source) => source.id.replace(/#\d+$/, ''));
    expect(sections, `sources: ${sources.map((source) => `${source.id} (${source.score?.toFixed(2)})`).join(', ')}`).toContain(section);
  });
});
