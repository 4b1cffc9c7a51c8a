import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIBrain } from '../src/models/brain/openai.js';
import { startOpenAIStub, toolCallCompletion, type OpenAIStub } from './helpers/openai-stub.js';

/** With --llm-url the verdict is the model's own tool calling (spec 6.2 step 1). */
describe('OpenAI-compatible brain: tool verdict', () => {
  let stub: OpenAIStub;
  beforeAll(async () => {
    stub = await startOpenAIStub();
  });
  afterAll(() => stub.close());
  const tools = [
    {
      name: 'lookup_order',
      description: 'Look up an order',
      input_schema: { type: 'object', properties: { order_id: { type: 'string' } } },
    },
  ];
  const req = { messages: [{ role: 'user' as const, content: 'where is order 7?' }] };

  it('sends the tools non-streamed with tool_choice auto and returns the first tool call', async () => {
    stub.handler = (_r, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(toolCallCompletion('lookup_order', { order_id: '7' })));
    };
    const v = await new OpenAIBrain({ url: stub.url, model: 'm' }).verdict(req, tools);
    expect(v).toEqual({ tool: 'lookup_order', args: { order_id: '7' } });
    const sent = JSON.parse(stub.requests.at(-1)!.body.toString());
    expect(sent).toMatchObject({
      model: 'm',
      stream: false,
      tool_choice: 'auto',
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup_order',
            description: 'Look up an order',
            parameters: tools[0]!.input_schema,
          },
        },
      ],
    });
  });

  it('no tool call, or a tool the session does not have, is no verdict', async () => {
    stub.handler = (_r, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Hi' } }] }));
    };
    expect(await new OpenAIBrain({ url: stub.url }).verdict(req, tools)).toBeNull();
    stub.handler = (_r, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          choices: [
            { message: { tool_calls: [{ function: { name: 'rm_rf', arguments: '{}' } }] } },
          ],
        }),
      );
    };
    expect(await new OpenAIBrain({ url: stub.url }).verdict(req, tools)).toBeNull();
  });
});
