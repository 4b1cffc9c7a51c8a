import { describe, expect, it } from 'vitest';
import { SentenceSplitter } from '../src/edge/session/conversation.js';
import { defaultVoice } from '../src/models/voice/index.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { decodeAudio, voicedMs } from './helpers/media-audio.js';
import { streamFrames, utteranceFrames } from './helpers/utterance.js';

/** Issue 8: barge-in cuts the reply within a fragment; the stored reply is what was actually said. */

const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const backstory =
  'I grew up in a small fishing village on the northern coast, where every morning started with the sound of boats leaving the harbour and gulls crying over the nets, and I spent my childhood summers learning to sail with my grandfather.';

describe('barge-in', () => {
  it('user speech during a reply cuts it: a speech event says what was said, the media stops, the transcript stores the said part', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', context: { backstory }, config: { greeting_enabled: false } },
      })
    ).body;
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Where did you grow up?' }),
    });
    const turn = await mic.next((x) => x.type === 'turn');
    const split = new SentenceSplitter();
    let fullMs = 0;
    for (const s of [...split.push(turn.reply), ...split.flush()])
      fullMs += (await defaultVoice().synthesize(s)).durationMs;
    expect(fullMs).toBeGreaterThan(5000);

    // Barge in once at least 1.5 s of the reply has reached the client.
    await until(
      async () => voicedMs(await decodeAudio(Buffer.concat(mse.bin))),
      (ms) => ms >= 1500,
      30_000,
    );
    await streamFrames(mic, await utteranceFrames('Wait, stop please.', 8));
    const cut = await events.next((x) => x.type === 'speech' && x.status === 'interrupted', 20_000);
    expect(cut.speech_id).toBe(turn.speech_id);
    expect(cut.said.split(' ').length).toBeGreaterThanOrEqual(3);
    expect(cut.said.length).toBeLessThan(turn.reply.length);
    expect(
      turn.reply.replace(/\s+/g, ' ').startsWith(cut.said.split(' ').slice(0, -1).join(' ')),
    ).toBe(true);

    // The barge-in's own turn follows; then the media is back to silence.
    await mic.next((x) => x.type === 'turn' && x.speech_id !== turn.speech_id, 20_000);
    const t = await until(
      () => h.api(`/api/v1/sessions/${m.session_id}/transcript`),
      (r) => r.body.count >= 1 && r.body.turns[0].reply_text === cut.said,
    );
    expect(t.body.turns[0]).toMatchObject({
      user_text: 'Where did you grow up?',
      reply_text: cut.said,
    });

    // The reply audio on /mse stopped well short of the whole reply.
    const pcmMs = voicedMs(await decodeAudio(Buffer.concat(mse.bin)));
    const oneReply = voicedMs((await defaultVoice().synthesize(turn.reply)).samples);
    expect(pcmMs).toBeLessThan(oneReply - 1000);
    for (const s of [mse, mic, events]) s.close();
  }, 60_000);
});
