/**
 * Issue 8's honest fallback when a recogniser IS there but hears nothing usable: a hummed
 * tone is speech to the VAD (so a turn is committed) but holds no words, and pocketsphinx
 * returns nothing for it (measured: 200-250 Hz, 1 to 3 s, always empty). docs/edge.md
 * promises the turn's text says `[speech not recognised: ...]` and the avatar asks again,
 * instead of an empty turn. The same holds for an `--asr-url` server that answers `""`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { defaultParts } from '../src/edge/default-parts.js';
import { OpenAIRecognizer, probePocketsphinx } from '../src/models/recognizer/index.js';
import { openSock, wsUrl, type Sock } from './helpers/edge.js';
import { useEmulator, type EmulatorHandle } from './helpers/emulator.js';
import { json, startOpenAIStub } from './helpers/openai-stub.js';
import { streamFrames } from './helpers/utterance.js';

/** A voiced hum (220 Hz and its harmonics, 4 Hz tremolo) as 100 ms mic frames, then silence. */
function humFrames(ms: number, f0 = 220): Buffer[] {
  const n = ms * 16;
  const s = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / 16_000;
    let v = 0;
    for (let h = 1; h <= 8; h++) v += Math.sin(2 * Math.PI * f0 * h * t) / h;
    const edge = Math.min(1, i / 800, (n - i) / 800);
    s[i] = Math.round(v * 4000 * edge * (1 + 0.2 * Math.sin(2 * Math.PI * 4 * t)));
  }
  const frames: Buffer[] = [];
  for (let o = 0; o < n; o += 1600) frames.push(Buffer.from(s.slice(o, o + 1600).buffer));
  for (let i = 0; i < 10; i++) frames.push(Buffer.alloc(3200));
  return frames;
}

async function hummedTurn(h: EmulatorHandle): Promise<{ turn: any; mic: Sock }> {
  const m = (
    await h.api('/api/v1/sessions', {
      body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
    })
  ).body;
  const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
  mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
  await streamFrames(mic, humFrames(1500));
  const turn = await mic.next((x) => x.type === 'turn', 60_000);
  return { turn, mic };
}

describe.skipIf(probePocketsphinx(process.env).missing.length > 0)(
  'pocketsphinx hears no words in a hum',
  () => {
    const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

    it('the turn says the speech was not recognised by pocketsphinx, and the avatar asks again', async () => {
      const { turn, mic } = await hummedTurn(h);
      expect(turn.text).toMatch(/^\[speech not recognised: .*pocketsphinx.* heard no words.*\]$/);
      expect(turn.reply).toMatch(/could not make out/);
      expect(mic.json.filter((x) => x.type === 'turn')).toHaveLength(1);
      mic.close();
      await mic.closed;
    }, 90_000);
  },
);

const stub = await startOpenAIStub();
stub.handler = (_req, res) => json(res, 200, { text: '', language: 'english', segments: [] });
afterAll(() => stub.close());

const parts = await defaultParts();

describe('an --asr-url server that hears no words', () => {
  const h = useEmulator({
    boxes: 1,
    seats: 4,
    mintRatePerMinute: 0,
    edgeParts: { ...parts, recognizer: new OpenAIRecognizer({ url: stub.url }) },
  });

  it('the turn says the speech was not recognised instead of being empty', async () => {
    const { turn, mic } = await hummedTurn(h);
    expect(stub.requests.some((r) => r.path.endsWith('/audio/transcriptions'))).toBe(true);
    expect(turn.text).toMatch(/^\[speech not recognised: .+\]$/);
    expect(turn.text).toMatch(/--asr-url.* heard no words/);
    expect(turn.reply).toMatch(/could not make out/);
    mic.close();
    await mic.closed;
  }, 30_000);
});
