import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../src/emulator/options.js';
import { openSock, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { checkStockTool, startHookServer } from './helpers/hook-server.js';
import {
  json,
  sseChat,
  startOpenAIStub,
  toolCallCompletion,
  type OpenAIStub,
} from './helpers/openai-stub.js';

/**
 * The fast lane with an upstream model (--llm-url): the verdict runs before the turn is
 * stored, so its request must end with the user's words; the reply's request then has the
 * tool's note and the instruction right after them, and the model words the reply.
 */
let stub: OpenAIStub;
let hook: Awaited<ReturnType<typeof startHookServer>>;
const verdicts: any[] = [];
const replies: any[] = [];
beforeAll(async () => {
  stub = await startOpenAIStub();
  stub.handler = async (r, res) => {
    const body = JSON.parse(r.body.toString());
    if (body.tools) {
      verdicts.push(body);
      return json(res, 200, toolCallCompletion('check_stock', { item: 'kettle' }));
    }
    replies.push(body);
    return sseChat(res, ['Yes, ', 'two kettles ', 'are left.']);
  };
  hook = await startHookServer();
});
afterAll(async () => {
  await stub.close();
  await hook.close();
});
const h = useEmulator({
  boxes: 1,
  seats: 2,
  mintRatePerMinute: 0,
  allowInsecureUrls: true,
  get llmUrl() {
    return stub.url;
  },
} as Partial<EmulatorOptions>);

describe('the fast lane with --llm-url', () => {
  it('the verdict sees the user turn before it is stored; the reply is generated with the note and instruction', async () => {
    const r = await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        config: { render: false, greeting_enabled: false },
        agent: { hook: hook.url, tok: 't' },
        tools: {
          inline: [checkStockTool({ fast: true, speak_hint: 'Be upbeat.' })],
        },
      },
    });
    expect(r.status).toBe(201);
    const m = r.body as { session_token: string; connect_url: string };
    hook.next({
      json: { ok: true, status: 'done', result: { kind: 'tool', text: 'Two kettles left.' } },
    });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const ack = (await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Is the kettle in stock?' }),
    }).then((x) => x.json())) as { speech_id: string };
    const turn = await mic.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    expect(turn.reply).toBe('Yes, two kettles are left.');
    expect(verdicts[0].messages.at(-1)).toEqual({
      role: 'user',
      content: 'Is the kettle in stock?',
    });
    const sent = replies[0].messages as { role: string; content: string }[];
    const at = sent.findIndex((x) => x.role === 'user' && x.content === 'Is the kettle in stock?');
    expect(sent.slice(at + 1).map((x) => x.content)).toEqual([
      '[tool check_stock result: Two kettles left.]',
      'Answer the user with this tool result. Be upbeat.',
    ]);
    mic.close();
  });
});
