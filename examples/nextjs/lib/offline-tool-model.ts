import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** The phrases that make the offline model call a tool, so that the page's tool flows run without an API key. */
const TOOL_TRIGGERS: readonly { pattern: RegExp; toolName: string; input: Record<string, unknown> }[] = [
  { pattern: /what time is it/i, toolName: 'currentTime', input: {} },
  { pattern: /where am i/i, toolName: 'getLocation', input: {} },
  { pattern: /delete my notes/i, toolName: 'deleteNotes', input: { folder: 'drafts' } },
];

/**
 * The offline stand-in model with tool calls: it calls a tool when the
 * question asks for one (and the call offers it), answers from the tool
 * results of a step that has them, tells a long story slowly when asked (to
 * have something to stop, after a pause to show the waiting indicator), fails when asked to, shows its Markdown
 * (a table, a wide code block, a link) when asked to, and otherwise lets the offline model answer from the documents.
 * A real model decides this itself.
 */
export function withOfflineToolCalls(model: LanguageModelV4): LanguageModelV4 {
  const story = slowStory();
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    async doStream(options) {
      if (asksFor(options, /long story/i)) return { stream: story(options.abortSignal) };
      if (asksFor(options, /make an error/i)) throw new Error('The offline model was asked to fail.');
      if (asksFor(options, /show me markdown/i)) return { stream: textStream(MARKDOWN_SAMPLE) };
      const parts = toolStepParts(options);
      if (parts === undefined) return model.doStream(options);
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

/** The stand-in model counts no tokens. */
const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

function toolStepParts(options: LanguageModelV4CallOptions): LanguageModelV4StreamPart[] | undefined {
  const last = options.prompt.at(-1);
  if (last?.role === 'tool') {
    const text = last.content
      .flatMap((part) => (part.type === 'tool-result' ? [part] : []))
      .map((part) =>
        part.output.type === 'execution-denied'
          ? `You declined **${part.toolName}**; nothing was done.`
          : `**${part.toolName}** answered \`${JSON.stringify('value' in part.output ? part.output.value : part.output)}\`.`,
      )
      .join(' ');
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'tool-answer' },
      { type: 'text-delta', id: 'tool-answer', delta: `[offline stand-in model] ${text}` },
      { type: 'text-end', id: 'tool-answer' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
  }
  if (last?.role !== 'user') return undefined;
  const question = last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
  const offered = new Set((options.tools ?? []).map((tool) => tool.name));
  const trigger = TOOL_TRIGGERS.find(({ pattern, toolName }) => pattern.test(question) && offered.has(toolName));
  if (trigger === undefined) return undefined;
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: `call-${crypto.randomUUID()}`, toolName: trigger.toolName, input: JSON.stringify(trigger.input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ];
}

function asksFor(options: LanguageModelV4CallOptions, pattern: RegExp): boolean {
  const last = options.prompt.at(-1);
  return last?.role === 'user' && last.content.some((part) => part.type === 'text' && pattern.test(part.text));
}

/** A story streamed a sentence every 150 ms, ended early by the call's abort signal. */
function slowStory() {
  return (abortSignal: AbortSignal | undefined) =>
    new ReadableStream<LanguageModelV4StreamPart>({
      async start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: 'story' });
        // A model that thinks before its first word: the page shows that it is waiting.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        controller.enqueue({ type: 'text-delta', id: 'story', delta: '[offline stand-in model] Once upon a time, ' });
        for (let sentence = 1; sentence <= 100; sentence++) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          if (abortSignal?.aborted) {
            controller.error(abortSignal.reason);
            return;
          }
          controller.enqueue({ type: 'text-delta', id: 'story', delta: `the tide turned for the ${sentence}th time. ` });
        }
        controller.enqueue({ type: 'text-end', id: 'story' });
        controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
        controller.close();
      },
    });
}

/** What the offline model answers to "show me markdown": GitHub-flavoured Markdown as real models write it. */
const MARKDOWN_SAMPLE = [
  '[offline stand-in model] Here is the **Markdown** a model writes:',
  '',
  '| Document | Topic |',
  '| --- | --- |',
  '| Helena Marsh | a biography |',
  '| Brightwater Notes | terms of use |',
  '',
  '```ts',
  `const line = '${'a wide line of code that scrolls sideways '.repeat(4).trim()}';`,
  '```',
  '',
  'See [the AI SDK](https://ai-sdk.dev/docs) for more.',
].join('\n');

function textStream(text: string): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 'text' });
      controller.enqueue({ type: 'text-delta', id: 'text', delta: text });
      controller.enqueue({ type: 'text-end', id: 'text' });
      controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
      controller.close();
    },
  });
}
