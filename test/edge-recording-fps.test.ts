/**
 * A `recording: true` video (spec 4.5) is the /mse stream as sent, and plays like it: every
 * frame the sample tables list decodes, and the clips spliced into it (idle loop, a reply's
 * sentences, the idle loop again) join cleanly: every video frame lasts 40 ms (no first frame
 * held over AAC priming), neither track has a hole at a join, every fragment ends its audio
 * and its video at the same time, so the rate is the stream's 25 fps (docs/media.md "Clip
 * joins"). The recording is read from its own sample tables (every moof's trun), and ffmpeg
 * (npm @ffmpeg-installer, no ffprobe shipped) must decode the same number of frames.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { timings } from './helpers/fmp4-timing.js';
import { ffmpegPath } from '../src/media/ffmpeg.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

describe('recording frame rate', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });

  it('a recorded session (idle, a spoken reply, idle again) plays at 25 fps: every frame 40 ms, no hole at a join', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', recording: true, config: { greeting_enabled: false } },
      })
    ).body;
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    await events.next((x) => x.type === 'status' && x.media_ms > 500);
    const chat = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Hi' }),
    });
    const { speech_id } = await chat.json();
    const started = await events.next(
      (x) => x.type === 'speech' && x.speech_id === speech_id && x.status === 'started',
      20_000,
    );
    const back = await events.next(
      (x) => x.type === 'status' && x.state === 'listening' && x.media_ms > started.media_ms + 500,
      30_000,
    );
    // The idle loop starts again after the reply: let a second of it play.
    await events.next((x) => x.type === 'status' && x.media_ms > back.media_ms + 1000);
    mse.close();
    events.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
    const rec = await until(
      () => h.api(`/_emulator/sessions/${m.session_id}/recordings/video.mp4`),
      (r) => r.status === 200,
    );
    const mp4 = rec.body as Buffer;

    const { video, audio } = timings(mp4);
    expect(video.frames).toBeGreaterThan(75);
    // ffmpeg decodes every frame the sample tables list.
    const dec = spawnSync(
      ffmpegPath(),
      ['-hide_banner', '-i', 'pipe:0', '-map', '0:v', '-f', 'null', '-'],
      { input: mp4 },
    );
    expect(Number(/frame=\s*(\d+)/.exec(dec.stderr.toString().split('\r').at(-1) ?? '')?.[1])).toBe(
      video.frames,
    );
    // No frame is held (each clip's first frame once lasted 104 ms over the AAC priming)...
    expect(video.odd).toEqual([]);
    // ...no join leaves a hole in either track (idle -> reply ones were 5-11 ms in video)...
    expect(video.gaps).toEqual([]);
    expect(audio.gaps).toEqual([]);
    // ...and every fragment ends both tracks together (audio once ran up to 40 ms past video).
    expect(audio.fragmentEnds.map((ms) => ms.toFixed(3))).toEqual(
      video.fragmentEnds.map((ms) => ms.toFixed(3)),
    );
    expect(video.startMs).toBe(0);
    expect(audio.startMs).toBe(0);
    // So the recording runs at 25 fps (it measured 24.3-24.6 before).
    expect(Math.abs(video.frames / ((video.endMs - video.startMs) / 1000) - 25)).toBeLessThan(0.25);
  }, 60_000);
});
