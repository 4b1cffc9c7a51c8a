import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultVoice, writeWav } from '../src/models/voice/index.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * A player that is on PATH but cannot play (no audio device: sox's `play` exits 1 at once).
 * The replies are no longer audible, so there is no echo to fear: the mic must not be gated
 * while the avatar speaks, and the screen must not claim an output (issue 9, Deliver 1 and 2).
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const dir = mkdtempSync(join(tmpdir(), 'avatar-play-fails-'));
let question = '';

beforeAll(async () => {
  const play = join(dir, 'play');
  writeFileSync(
    play,
    '#!/bin/sh\necho "play FAIL sox: Sorry, there is no default audio device configured" >&2\nexit 1\n',
  );
  chmodSync(play, 0o755);
  const speech = await defaultVoice().synthesize(
    'Hello there. Where did you grow up, and what do you do all day?',
  );
  question = join(dir, 'q.wav');
  writeFileSync(question, writeWav(speech.samples, speech.sampleRate));
});

describe('sessions live --play when the player fails', () => {
  it('notes it once (no error), keeps the mic open while the avatar speaks, and the turn is heard', async () => {
    const env = emulatorEnv(h, { env: { PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` } });
    const r = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--mic-file',
        question,
        '--play',
        '--turns',
        '1',
      ],
      env,
    );
    expect(r.code).toBe(0);
    const ev = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    // A machine without an audio device is not a failure of the session: a quiet note, once (issue 19).
    expect(ev.filter((e) => e.event === 'error')).toEqual([]);
    const notes = ev.filter(
      (e) => e.event === 'notice' && /replies are not played/.test(e.message),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toMatch(
      /play stopped \(exit 1\): play FAIL sox: Sorry, there is no default audio device/,
    );
    // Nothing is audible, so nothing is gated: the question streamed over the greeting is heard whole.
    expect(ev.filter((e) => e.event === 'mic_gate' && e.gated)).toEqual([]);
    const turn = ev.find((e) => e.event === 'turn' && !e.greeting);
    expect(turn?.text.length).toBeGreaterThan(0);
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done', released: true });
  }, 120_000);
});
