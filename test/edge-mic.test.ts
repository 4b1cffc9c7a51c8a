import { describe, expect, it } from 'vitest';
import { defaultParts } from '../src/edge/default-parts.js';
import { probePocketsphinx, UnavailableRecognizer } from '../src/models/recognizer/index.js';
import { openSock, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { FAST_MIC_MS, streamFrames, utteranceFrames } from './helpers/utterance.js';

/** Issue 8: spoken turns from /mic_stream: VAD, partials, the turn, and the recogniser's honest fallback. */

const parts = await defaultParts();

describe('spoken turns with no recogniser on the machine (brain-only)', () => {
  const h = useEmulator({
    boxes: 1,
    seats: 4,
    mintRatePerMinute: 0,
    edgeParts: { ...parts, recognizer: new UnavailableRecognizer() },
  });

  it('a synthesized utterance streamed as mic frames gives partials then one turn; with no recogniser installed the turn says so instead of inventing words', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    const frames = await utteranceFrames(
      'Hello there. I would like to know where you grew up and what you do all day.',
    );
    // Silence first: zeroed frames keep cadence and make no turn.
    await streamFrames(
      mic,
      [Buffer.alloc(3200), Buffer.alloc(3200), Buffer.alloc(3200)],
      undefined,
      FAST_MIC_MS,
    );
    expect(mic.json.filter((x) => x.type === 'partial' || x.type === 'turn')).toHaveLength(0);
    // Faster than real time: the VAD and partials run on mic-stream positions, not a clock.
    await streamFrames(mic, frames, undefined, FAST_MIC_MS);
    const turn = await mic.next((x) => x.type === 'turn');
    const partials = mic.json.filter((x) => x.type === 'partial');
    expect(partials.length).toBeGreaterThan(0);
    expect(mic.json.indexOf(partials[0])).toBeLessThan(mic.json.indexOf(turn));
    expect(mic.json.filter((x) => x.type === 'turn')).toHaveLength(1);
    expect(turn.text).toMatch(/not recognised/);
    expect(turn.text).toMatch(/pocketsphinx/);
    expect(turn.reply).toMatch(/could not make out/);
    mic.close();
    await mic.closed;
  }, 30_000);
});

describe.skipIf(probePocketsphinx(process.env).missing.length > 0)(
  'spoken turns with pocketsphinx installed',
  () => {
    const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });
    it('the turn carries the recognised words and the reply answers them', async () => {
      const m = (
        await h.api('/api/v1/sessions', {
          body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
        })
      ).body;
      const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
      mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
      // Real-time cadence: pocketsphinx's stream hears the utterance as it is spoken.
      await streamFrames(mic, await utteranceFrames('Hello. What is your name?'));
      const turn = await mic.next((x) => x.type === 'turn', 20_000);
      expect(turn.text).toMatch(/name/i);
      expect(turn.reply).not.toMatch(/could not make out/);
      mic.close();
      await mic.closed;
    }, 30_000);
  },
);
