/**
 * A turn on which a tool fires is answered with an acknowledgement ("Let me draw that for
 * you."), never a refusal (issue 29 item 2). The local brain decides by the box's own
 * deterministic verdict rule (src/models/brain/tool-verdict.ts), so the reply and the call
 * agree on every turn; the tool's `cover_line` is said when it is in the reply's language.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SERVERS } from '../src/contract/builtins.js';
import { PHRASE_LANGUAGES } from '../src/models/brain/language.js';
import { composeReply } from '../src/models/brain/local.js';
import { PHRASES } from '../src/models/brain/phrases.js';
import { deterministicVerdict } from '../src/models/brain/tool-verdict.js';
import type { BrainRequest } from '../src/models/brain.js';
import { openSock, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';
import { checkStockTool } from './helpers/hook-server.js';

const IMAGE = BUILTIN_SERVERS['svc.image']!;
const STOCK = checkStockTool();
const TOOLS = [...IMAGE, STOCK];
const persona = {
  name: 'Ava',
  backstory:
    "I'm Ava, and I help with new accounts in apps. I explain settings and where to find them.",
};

const ask = (content: string, extra: Partial<BrainRequest> = {}) =>
  composeReply({ messages: [{ role: 'user', content }], persona, tools: TOOLS, ...extra });

/** Turns people type to an avatar with tools: some ask for one, some do not. */
const TURNS = [
  'Please draw a picture of a lighthouse at night.',
  'Can you draw me a red kite?',
  'Make an illustration of a fox in the snow',
  'Could you restyle your avatar picture to look like a pirate?',
  'Is the blue kettle in stock?',
  'Check the stock for order 1234',
  'Thanks! Now please draw a picture of a cat.',
  'Generate an image of a sunset over the sea',
  'Where do I find the settings?',
  'What is your name?',
  'Thank you very much for your help.',
  'Tell me a joke',
  'How do I invite my team?',
];

describe('the reply to a turn that fires a tool acknowledges it', () => {
  it('issue 29: "Please draw a picture of a lighthouse at night." with svc.image', () => {
    const r = ask('Please draw a picture of a lighthouse at night.');
    expect(r).toBe('Let me draw that for you.');
    expect(r).not.toMatch(/sorry|don't know/i);
  });

  it("the acknowledgement and the box's call agree on every turn (one verdict rule)", () => {
    const P = PHRASES.en;
    for (const turn of TURNS) {
      const verdict = deterministicVerdict(turn, TOOLS);
      const r = ask(turn);
      const tool = TOOLS.find((t) => t.name === verdict?.tool);
      const line = tool ? (tool.cover_line ?? P.toolAck) : null;
      if (line) {
        expect(r, turn).toContain(line);
        expect(r, turn).not.toMatch(/sorry|don't know/i);
      } else {
        for (const t of TOOLS) if (t.cover_line) expect(r, turn).not.toContain(t.cover_line);
        expect(r, turn).not.toContain(P.toolAck);
      }
    }
    // The table has both kinds.
    expect(TURNS.filter((t) => deterministicVerdict(t, TOOLS)).length).toBeGreaterThanOrEqual(5);
    expect(TURNS.filter((t) => !deterministicVerdict(t, TOOLS)).length).toBeGreaterThanOrEqual(4);
  });

  it('the rest of the turn is still answered: "Thanks! Now please draw a picture of a cat."', () => {
    expect(ask('Thanks! Now please draw a picture of a cat.')).toBe(
      "You're welcome! Let me draw that for you.",
    );
  });

  it("a tool without a cover_line: the phrase table's line", () => {
    expect(ask('Is the blue kettle in stock?')).toBe(PHRASES.en.toolAck);
  });

  it("in another language: the phrase table's line, not the English cover_line", () => {
    for (const lang of PHRASE_LANGUAGES.filter((l) => l !== 'en')) {
      const r = ask('Please draw a picture of a lighthouse at night.', { language: lang });
      expect(r, lang).toBe(PHRASES[lang].toolAck);
    }
  });

  it('no tools in the request: no acknowledgement (the brain does not pretend)', () => {
    const r = composeReply({
      messages: [{ role: 'user', content: 'Please draw a picture of a lighthouse at night.' }],
      persona,
    });
    expect(r).not.toContain('Let me draw that for you.');
  });

  it('the answer already in hand (a fast tool\'s note after the turn): no "one moment", the talk goes on', () => {
    const r = composeReply({
      messages: [
        { role: 'user', content: 'Is the blue kettle in stock?' },
        { role: 'system', content: '[tool check_stock result: Two blue kettles left.]' },
      ],
      persona,
      tools: TOOLS,
    });
    expect(r).toBe(PHRASES.en.anythingElse);
  });

  it('the same request twice, the same reply', () => {
    expect(ask('Can you draw me a red kite?')).toBe(ask('Can you draw me a red kite?'));
  });
});

describe("on the box: the turn that fires svc.image says so, the picture's line follows", () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
  beforeAll(async () => {
    await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/builtin-servers/svc.image`, {
      method: 'PUT',
      body: { enabled: true },
    });
  });

  it('issue 29: "Please draw a picture of a lighthouse at night." -> "Let me draw that for you."', async () => {
    const m = await mintSession(h, { tools: { servers: ['svc.image'] } }, { render: false });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const ack = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Please draw a picture of a lighthouse at night.' }),
    }).then((r) => r.json() as Promise<{ speech_id: string }>);
    const turn = await mic.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    expect(turn.reply).toBe('Let me draw that for you.');
    const follow = await mic.next((x) => x.type === 'turn' && x.speech_id !== ack.speech_id);
    expect(follow.reply).toBe('Here is the picture: a lighthouse at night.');
    // At once again: the box holds a second call back (20 s cooldown, spec 8), so the reply
    // does not promise a picture that will not come.
    const again = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Please draw a picture of a red kite.' }),
    }).then((r) => r.json() as Promise<{ speech_id: string }>);
    const second = await mic.next((x) => x.type === 'turn' && x.speech_id === again.speech_id);
    expect(second.reply).not.toMatch(/draw that/i);
    mic.close();
  });
});
