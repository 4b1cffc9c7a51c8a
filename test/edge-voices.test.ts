import { describe, expect, it } from 'vitest';
import { defaultParts } from '../src/edge/default-parts.js';
import { mouthTrack } from '../src/media/lip-sync.js';
import type { Speech, SynthesizeOptions, Voice } from '../src/models/voice.js';
import { systemVoice } from '../src/models/voice/index.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';
import { decodeAudio, voicedMs } from './helpers/media-audio.js';

/**
 * Issue 30 item 4: a zh-CN, es, fr or de reply has speech-sized audio on /mse when espeak-ng
 * is installed, and the mouth moves with it. The box runs the default parts; its voice is
 * watched (what each reply sentence was synthesized as) so the visemes can be read.
 */

const lines: string[] = [];
const parts = await defaultParts({ log: (l) => lines.push(l) });
const made: { text: string; lang: string | undefined; speech: Speech }[] = [];
const inner = parts.voice!;
const watched: Voice = {
  name: inner.name,
  voices: inner.voices,
  async synthesize(text: string, opts?: SynthesizeOptions) {
    const speech = await inner.synthesize(text, opts);
    made.push({ text, lang: opts?.lang, speech });
    return speech;
  },
};

describe.skipIf(!systemVoice())(
  'replies in other languages on /mse (needs espeak-ng, else skipped: apt-get install espeak-ng)',
  () => {
    const h = useEmulator({
      boxes: 1,
      seats: 4,
      mintRatePerMinute: 0,
      edgeParts: { ...parts, voice: watched },
    });

    it.each(['zh-CN', 'es', 'fr', 'de'])(
      'a %s reply is speech-sized audio with a moving mouth',
      async (lang) => {
        const m = await mintSession(h, { response_language: lang }, { render: true });
        const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
        const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
        const r = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
          method: 'POST',
          body: JSON.stringify({ text: 'Where did you grow up?' }),
        });
        const id = ((await r.json()) as { speech_id: string }).speech_id;
        const turn = await events.next((x) => x.type === 'turn' && x.speech_id === id, 30_000);
        expect(turn.language.slice(0, 2)).toBe(lang.slice(0, 2));
        // Words of the reply (a Chinese character is about half a word's sound).
        const words =
          lang === 'zh-CN'
            ? (turn.reply.match(/\p{Script=Han}/gu) ?? []).length / 2
            : turn.reply.split(/\s+/).length;
        expect(words).toBeGreaterThan(2);
        // Speech sized: at least 0.15 s of sound per word once it has all played (flite read
        // Chinese as a short silence: ~0 ms).
        const pcm = await until(
          async () => decodeAudio(Buffer.concat(mse.bin)),
          (p) => voicedMs(p) >= 150 * words,
          60_000,
        );
        expect(voicedMs(pcm)).toBeGreaterThanOrEqual(150 * words);
        console.log(
          `${lang}: ${voicedMs(pcm)} ms of sound on /mse for ${words} words: ${turn.reply}`,
        );
        // The reply's sentences were spoken by espeak-ng's phones: the mouth opens and shuts.
        const mine = made.filter((s) => turn.reply.includes(s.text.trim()));
        expect(mine.length).toBeGreaterThan(0);
        for (const { speech } of mine) {
          expect(speech.phones!.length).toBeGreaterThan(3);
          const mouth = mouthTrack(speech);
          const open = Array.from({ length: Math.floor(speech.durationMs / 40) }, (_, i) =>
            Math.round(mouth(i * 40) * 8),
          );
          expect(new Set(open).size).toBeGreaterThan(3);
        }
        mse.close();
        events.close();
      },
      90_000,
    );
  },
);

const noticed: string[] = [];
const quiet = await defaultParts({ log: (l) => noticed.push(l) });

describe('a non-English session without --asr-url', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0, edgeParts: quiet });

  it('logs once per language that recognition in it needs --asr-url', async () => {
    for (const lang of ['fr', 'fr', 'de']) {
      const m = await mintSession(h, { response_language: lang });
      const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
      await events.next(() => true, 20_000); // the session is open on the box
      events.close();
    }
    const notices = noticed.filter((l) => l.includes('--asr-url'));
    expect(notices.filter((l) => l.includes('"fr"'))).toHaveLength(1);
    expect(notices.filter((l) => l.includes('"de"'))).toHaveLength(1);
  });
});
