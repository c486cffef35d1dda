import type { ModelMessage } from 'ai';

type ContentPart = Exclude<ModelMessage['content'], string>[number];

/**
 * Every text in `messages` a model reads as words: text and reasoning parts,
 * text-like files sent inline (plain text, Markdown, CSV, JSON, XML, ... as
 * base64, bytes, a `data:` URL or inline text), tool results (text, JSON,
 * error text, content parts) and the reasons given with tool approvals.
 * Files at a remote URL, images and other binary files are not read.
 */
export function* readableTexts(messages: Iterable<ModelMessage>): Generator<string> {
  for (const message of messages) {
    if (typeof message.content === 'string') {
      yield message.content;
      continue;
    }
    for (const part of message.content as readonly ContentPart[]) yield* partTexts(part);
  }
}

function* partTexts(part: ContentPart): Generator<string> {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      yield part.text;
      break;
    case 'file': {
      const text = isTextMediaType(part.mediaType) ? inlineFileText(part.data) : undefined;
      if (text !== undefined) yield text;
      break;
    }
    case 'tool-result':
      yield* outputTexts(part.output);
      break;
    case 'tool-approval-response':
      if (part.reason !== undefined) yield part.reason;
      break;
  }
}

type ToolOutput = Extract<ContentPart, { type: 'tool-result' }>['output'];

function* outputTexts(output: ToolOutput): Generator<string> {
  switch (output.type) {
    case 'text':
    case 'error-text':
      yield output.value;
      break;
    case 'json':
    case 'error-json':
      yield JSON.stringify(output.value) ?? '';
      break;
    case 'execution-denied':
      if (output.reason !== undefined) yield output.reason;
      break;
    case 'content':
      for (const item of output.value) if (item.type === 'text') yield item.text;
      break;
  }
}

const TEXT_MEDIA_TYPE =
  /^(?:text(?:\/.*)?|application\/(?:json|xml|yaml|x-yaml|javascript|x-ndjson|csv)|[\w.-]+\/[\w.-]+\+(?:json|xml|yaml))$/i;

function isTextMediaType(mediaType: string): boolean {
  return TEXT_MEDIA_TYPE.test(mediaType.split(';')[0]!.trim());
}

/** A file's text when it travels with the message; `undefined` for a remote URL or a provider reference. */
function inlineFileText(data: unknown): string | undefined {
  if (typeof data === 'string')
    return REMOTE_URL.test(data) || data.startsWith('data:') ? urlText(data) : Buffer.from(data, 'base64').toString('utf8');
  if (data instanceof URL) return urlText(data.href);
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (data === null || typeof data !== 'object' || !('type' in data)) return undefined;
  const tagged = data as { type: string; text?: unknown; data?: unknown; url?: unknown };
  if (tagged.type === 'text' && typeof tagged.text === 'string') return tagged.text;
  if (tagged.type === 'data') return inlineFileText(tagged.data);
  if (tagged.type === 'url') return urlText(tagged.url instanceof URL ? tagged.url.href : tagged.url);
  return undefined;
}

const REMOTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

function urlText(url: unknown): string | undefined {
  return typeof url === 'string' && url.startsWith('data:') ? dataUrlText(url) : undefined;
}

function dataUrlText(url: string): string | undefined {
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const header = url.slice(5, comma);
  const body = url.slice(comma + 1);
  return header.endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : safeDecodeURIComponent(body);
}

function safeDecodeURIComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
