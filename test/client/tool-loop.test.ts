import { isStepCount, jsonSchema, streamText, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AdvisedResponse, type Advisor, advisorMiddleware, createChatClient } from '../../src/index.ts';
import { mockModel, textParts, toolCallParts } from '../helpers/mock-models.ts';

const weather = tool({
  description: 'Weather in a city',
  inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
});

function turnRecorder(requests: string[], responses: AdvisedResponse[]): Advisor {
  return {
    name: 'turn-recorder',
    before: (request) => {
      requests.push(JSON.stringify(request.input));
      return { ...request, instructions: 'Use tools when useful.' };
    },
    after: (response) => (responses.push(response), response),
  };
}

function expectWholeTurn(messages: readonly ModelMessage[]) {
  expect(messages.map((message) => message.role)).toEqual(['assistant', 'tool', 'assistant']);
  const [call, result, answer] = messages as [ModelMessage, ModelMessage, ModelMessage];
  expect(JSON.stringify(call.content)).toContain('"toolCallId":"call-1"');
  expect(JSON.stringify(result.content)).toContain('"toolCallId":"call-1"');
  expect(JSON.stringify(result.content)).toContain('sunny');
  expect(JSON.stringify(answer.content)).toContain('It is sunny in Paris.');
}

describe('tool loops', () => {
  it('chat client: the chain wraps the whole turn, running before and after once', async () => {
    for (const mode of ['generate', 'stream'] as const) {
      const model = mockModel([toolCallParts('weather', { city: 'Paris' }), textParts(['It is sunny in Paris.'])]);
      const requests: string[] = [];
      const responses: AdvisedResponse[] = [];
      const chat = createChatClient({ model, tools: { weather }, stopWhen: isStepCount(3), advisors: [turnRecorder(requests, responses)] });
      const response =
        mode === 'generate'
          ? await chat.generate({ prompt: 'Weather in Paris?' })
          : await (async () => {
              const result = chat.stream({ prompt: 'Weather in Paris?' });
              await result.consumeStream();
              return result.response;
            })();
      expect(requests).toHaveLength(1);
      expect(responses).toHaveLength(1);
      expect(response.text).toBe('It is sunny in Paris.');
      expectWholeTurn(response.messages);
      const calls = mode === 'generate' ? model.doGenerateCalls : model.doStreamCalls;
      expect(calls).toHaveLength(2);
      expect(calls.every((call) => call.prompt[0]?.role === 'system')).toBe(true);
    }
  });

  it('middleware: before runs on the first step only; after runs as each step ends, on the part of the turn that step added', async () => {
    for (const mode of ['generate', 'stream'] as const) {
      const inner = mockModel([toolCallParts('weather', { city: 'Paris' }), textParts(['It is sunny in Paris.'])]);
      const requests: string[] = [];
      const responses: AdvisedResponse[] = [];
      const retrieved: string[] = [];
      const model = wrapLanguageModel({
        model: inner,
        middleware: advisorMiddleware([
          turnRecorder(requests, responses),
          {
            name: 'rag',
            order: 1,
            before: (request) => {
              retrieved.push(String(request.context.entries().conversationId));
              return { ...request, sources: [{ id: 'd1', text: 'Paris weather facts', metadata: {} }] };
            },
          },
        ]),
      });
      const options = {
        model,
        tools: { weather },
        stopWhen: isStepCount(3),
        prompt: 'Weather in Paris?',
        providerOptions: { advisors: { conversationId: 'c-1' } },
      };
      let text: string;
      if (mode === 'generate') {
        const { generateText } = await import('ai');
        text = (await generateText(options)).text;
      } else {
        const result = streamText(options);
        text = await result.text;
      }
      expect(text).toBe('It is sunny in Paris.');
      expect(requests).toHaveLength(1);
      expect(retrieved).toEqual(['c-1']);
      expect(responses).toHaveLength(2);
      const [callStep, answerStep] = responses as [AdvisedResponse, AdvisedResponse];
      expect(callStep.outcome).toBe('finished');
      expect(callStep.finishReason).toBe('tool-calls');
      expect(callStep.request.input).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }]);
      expect(answerStep.outcome).toBe('finished');
      expect(answerStep.request.input.map((message) => message.role)).toEqual(['tool']);
      expect(answerStep.context).toBe(callStep.context);
      expectWholeTurn([...callStep.messages, ...answerStep.request.input, ...answerStep.messages]);
      const calls = mode === 'generate' ? inner.doGenerateCalls : inner.doStreamCalls;
      expect(calls).toHaveLength(2);
      // The second step keeps the first step's augmentation and appends the tool messages.
      expect(calls[1]!.prompt[0]).toEqual({ role: 'system', content: 'Use tools when useful.' });
      expect(calls[1]!.prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    }
  });
});
