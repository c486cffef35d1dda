import { readUIMessageStream, streamText, wrapLanguageModel, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { questionAnswerAdvisor } from '../../advisors/index.ts';
import { advisorMiddleware, createChatClient, type Document } from '../../src/index.ts';
import { documentSourcePart, MAX_SOURCE_PARTS } from '../../src/extension/index.ts';
import type { Retriever } from '../../src/retrieval/index.ts';
import { mockModel, textParts } from '../helpers/mock-models.ts';

const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

/** Sixty documents as a careless index holds them: long titles, credentials in the text and the URL. */
const documents: Document[] = Array.from({ length: 60 }, (_, index) => ({
  id: `doc-${index}-${'i'.repeat(400)}`,
  text: `Config for service ${index}: OPENAI_API_KEY=${KEY} and Authorization: Bearer ${KEY}. ${'More text. '.repeat(300)}`,
  metadata: {
    title: `Runbook ${index} ${'t'.repeat(2_000)}`,
    url: `https://admin:hunter2@wiki.example.com/runbook/${index}?access_token=${KEY}`,
    internalNote: 'do not show',
  },
  score: 1 - index / 100,
}));
const retriever: Retriever = { name: 'wiki', retrieve: async () => documents };
const rag = () => questionAnswerAdvisor({ retriever, topK: 60 });

async function lastMessage(stream: ReadableStream<never>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

function expectSafeSources(message: UIMessage) {
  const sources = message.parts.filter((part) => part.type === 'source-url' || part.type === 'source-document');
  expect(sources).toHaveLength(MAX_SOURCE_PARTS);
  const sent = JSON.stringify(sources);
  expect(sent).not.toContain('AbCdEfGhIj');
  expect(sent).not.toContain('hunter2');
  expect(sent).not.toContain('internalNote');
  expect(sent.length).toBeLessThan(MAX_SOURCE_PARTS * 1_500);
  for (const source of sources) {
    expect((source as { title?: string }).title!.length).toBeLessThanOrEqual(201);
    expect((source as { sourceId: string }).sourceId.length).toBeLessThanOrEqual(257);
  }
}

describe('source parts are bounded and redacted like everything else that leaves the server', () => {
  it('through the chat client: at most 20 sources, fields cut, credentials in snippets and URLs redacted', async () => {
    const chat = createChatClient({ model: mockModel([textParts(['Answer.'])]), advisors: [rag()] });
    const result = chat.stream({ prompt: 'How do I configure the service?' });
    expectSafeSources(await lastMessage(result.toUIMessageStream() as ReadableStream<never>));
    expect(await result.sources).toHaveLength(60);
  });

  it('through the middleware: the same', async () => {
    const model = wrapLanguageModel({ model: mockModel([textParts(['Answer.'])]), middleware: advisorMiddleware({ advisors: [rag()] }) });
    const result = streamText({ model, prompt: 'How do I configure the service?' });
    expectSafeSources(await lastMessage(result.toUIMessageStream({ sendSources: true }) as ReadableStream<never>));
  });

  it('redacts a credential that straddles the snippet cut, reading only to the first whitespace past it', () => {
    const snippetOf = (text: string) => {
      const part = documentSourcePart({ id: 'd', text, metadata: {} });
      return part.type === 'source' ? String(part.providerMetadata?.advisors?.snippet) : '';
    };
    for (const [before, credential] of [
      [270, KEY],
      [250, `Authorization: Bearer ${KEY}`],
      [255, `"password": "correct horse battery staple"`],
      [230, `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq98 3xQ\n-----END RSA PRIVATE KEY-----`],
    ] as const) {
      const snippet = snippetOf(`${'a'.repeat(before)} ${credential} ${'More text. '.repeat(300)}`);
      expect(snippet.length).toBeLessThanOrEqual(281);
      for (const secret of ['proj', 'horse', 'MIIEow']) expect(snippet).not.toContain(secret);
    }
  });
});
