import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { faceFromStyle } from '../src/media/face-source.js';
import { splitFmp4 } from '../src/media/fmp4.js';
import { loadIdleLoop } from '../src/media/idle-loop.js';
import {
  createSessionStream,
  type FragmentInfo,
  type SessionStream,
} from '../src/media/session-stream.js';
import { FliteVoice } from '../src/models/voice/index.js';
import { loopAt32kbps } from './helpers/foreign-loop.js';

/**
 * An idle loop another build encoded can pass `loadIdleLoop` (fMP4, video + 32 kHz audio)
 * and still start with another init segment: the build between the 32 kHz move and the
 * 40 kb/s one wrote AAC at 32 kb/s, which only changes the esds bitrate. The session's init
 * segment must be the live encoder's, or every reply's clip is refused (encoder-error) and
 * the avatar never speaks: such a loop is set aside and the still loop plays.
 */
const ctx = { fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0];
const face = faceFromStyle(personaStyle(ctx, 'ava')!);
const stockInit = splitFmp4(readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'idle.mp4'))).init;

let stream: SessionStream | null = null;
afterEach(() => stream?.close());

describe('session stream with an idle loop from another encoder setting', () => {
  it('plays the still loop with the live init segment, so a reply is spoken instead of refused', async () => {
    const foreign = loadIdleLoop(await loopAt32kbps(face.frames.width, face.frames.height));
    expect(Buffer.compare(foreign.init, stockInit)).not.toBe(0);

    const clock = new ManualClock();
    stream = createSessionStream({ face, idle: foreign, clock });
    const sent: FragmentInfo[] = [];
    const errors: Error[] = [];
    stream.on('fragment', (_b, info) => sent.push(info));
    stream.on('encoder-error', (e) => errors.push(e));
    await stream.ready();
    expect(Buffer.compare(stream.initSegment, stockInit)).toBe(0);

    const reply = stream.speak(await new FliteVoice().synthesize('Hello there.'));
    let result: { interrupted: boolean } | null = null;
    void reply.done.then((r) => (result = r));
    for (let i = 0; i < 2000 && !result; i++) {
      clock.advance(20);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(errors.map((e) => e.message)).toEqual([]);
    expect(result).toMatchObject({ interrupted: false });
    expect(sent.some((x) => x.kind === 'talk')).toBe(true);
    expect(sent.some((x) => x.kind === 'idle')).toBe(false);
  }, 30_000);
});
