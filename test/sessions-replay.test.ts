/**
 * Record and replay (issue 18 item 7): `sessions live --save-session` stores what the session
 * took and gave; `sessions replay` plays it back against the emulator and reports where the
 * transcript differs. The emulator's models are deterministic, so a replay of a spoken
 * conversation gives the same transcript, byte for byte, every time.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultVoice, writeWav } from '../src/models/voice/index.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });
const dir = mkdtempSync(join(tmpdir(), 'avatar-replay-'));
const question = join(dir, 'q.wav');
const spoken = join(dir, 'spoken.json');

beforeAll(async () => {
  const speech = await defaultVoice().synthesize('Hello there. Where did you grow up?');
  writeFileSync(question, writeWav(speech.samples, speech.sampleRate));
});

// The tests run side by side (four seats): each session waits on real-time media and cadence.
describe.concurrent('sessions live --save-session, sessions replay', () => {
  it('a replayed spoken conversation reproduces the same transcript and events, byte for byte, twice', async () => {
    const rec = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--mic-file',
        question,
        '--turns',
        '1',
        '--save-session',
        spoken,
      ],
      env(),
    );
    expect(rec.code).toBe(0);
    const file = JSON.parse(readFileSync(spoken, 'utf8'));
    expect(file.format).toBe('avatar-session/1');
    // The uplink as sent: at least the clip's 2 s of frames, 3,200 bytes each.
    expect(file.mic.frames).toBeGreaterThanOrEqual(15);
    expect(Buffer.from(file.mic.pcm16_base64, 'base64').length).toBe(file.mic.frames * 3200);
    const heard = file.transcript.find(
      (e: { event: string; greeting?: boolean }) => e.event === 'turn' && !e.greeting,
    );
    expect(heard.text).toMatch(/where did you grow up/);
    expect(file.events.some((e: { event: string }) => e.event === 'media')).toBe(false);

    // Two replays side by side: each plays the recording back in real time.
    const [first, second] = await Promise.all([
      cli(['--json', 'sessions', 'replay', spoken], env()),
      cli(['--json', 'sessions', 'replay', spoken], env()),
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ same: true, differences: [], ended: 'turns_done' });
    expect(JSON.stringify(first.json().transcript)).toBe(JSON.stringify(file.transcript));
    expect(second.code).toBe(0);
    expect(JSON.stringify(second.json().transcript)).toBe(JSON.stringify(first.json().transcript));
  }, 180_000);

  it('typed turns replay at their recorded cadence; a recording that no longer matches exits 6 naming the entry', async () => {
    const typed = join(dir, 'typed.json');
    const args = [
      '--json',
      'sessions',
      'live',
      '--persona',
      'ava',
      '--say',
      'Where do you live?',
      'Who are you?',
      '--turns',
      '2',
      '--save-session',
      typed,
    ];
    const rec = await cli(args, env());
    expect(rec.code).toBe(0);
    const file = JSON.parse(readFileSync(typed, 'utf8'));
    expect(file.typed.map((x: { text: string }) => x.text)).toEqual([
      'Where do you live?',
      'Who are you?',
    ]);
    expect(file.mic).toBeNull();

    // The service now answers otherwise than it did: the replay names where. The recording
    // as saved and the one changed here replay side by side (real-time cadence).
    const changed = join(dir, 'typed-changed.json');
    const i = file.transcript.findIndex(
      (e: { event: string; greeting?: boolean }) => e.event === 'turn' && !e.greeting,
    );
    file.transcript[i].reply = 'A reply the service never gave.';
    writeFileSync(changed, JSON.stringify(file));
    const [ok, bad] = await Promise.all([
      cli(['--json', 'sessions', 'replay', typed], env()),
      cli(['--json', 'sessions', 'replay', changed], env()),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.json().same).toBe(true);
    expect(bad.code).toBe(6);
    expect(bad.json().differences).toEqual([
      {
        at: i,
        recorded: file.transcript[i],
        replayed: expect.objectContaining({ event: 'turn', text: 'Where do you live?' }),
      },
    ]);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'replay_differs' });
  }, 180_000);

  it('a file that is not a saved session is a usage error, before any mint', async () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    const r = await cli(['sessions', 'replay', junk], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a saved session \(format must be\savatar-session\/1\)/);
  });
});
