import { describe, expect, it } from 'vitest';
import { openSock, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { streamFrames, utteranceFrames } from './helpers/utterance.js';

/** Issue 8: spoken turns from /mic_stream: VAD, partials, the turn, and the recogniser's honest fallback. */

describe('spoken turns (brain-only)', () => {
  const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

  it('a synthesized utterance streamed at real-time cadence gives partials then one turn; with no recogniser installed the turn says so instead of inventing words', async () => {
    const m = (await h.api('/api/v1/sessions', { body: { persona: 'ava', config: { render: false, greeting_enabled: false } } })).body;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    const frames = await utteranceFrames('Hello there. I would like to know where you grew up and what you do all day.');
    // Silence first: zeroed frames keep cadence and make no turn.
    await streamFrames(mic, [Buffer.alloc(3200), Buffer.alloc(3200), Buffer.alloc(3200)]);
    expect(mic.json.filter((x) => x.type === 'partial' || x.type === 'turn')).toHaveLength(0);
    await streamFrames(mic, frames);
    const turn = await mic.next((x) => x.type === 'turn');
    const partials = mic.json.filter((x) => x.type === 'partial');
    expect(partials.length).toBeGreaterThan(0);
    expect(mic.json.indexOf(partials[0])).toBeLessThan(mic.json.indexOf(turn));
    expect(mic.json.filter((x) => x.type === 'turn')).toHaveLength(1);
    expect(turn.text).toMatch(/not recognised/);
    expect(turn.reply).toMatch(/could not make out/);
    mic.close();
    await mic.closed;
  }, 30_000);
});
