import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runFfmpeg as ffmpeg } from '../src/media/ffmpeg.js';
import { defaultVoice, writeWav } from '../src/models/voice/index.js';
import { cli, emulatorEnv, sharedRuns, watchedCli } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `avatar sessions live` against the emulator without a TTY (issue 9): a synthesized
 * question streamed from a file at real-time cadence, NDJSON events, the seat released.
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });
const dir = mkdtempSync(join(tmpdir(), 'avatar-live-'));
let question = '';

beforeAll(async () => {
  // An MP3 at 44.1 kHz stereo: the CLI must resample it to 16 kHz mono itself.
  const speech = await defaultVoice().synthesize(
    'Hello there. Where did you grow up, and what do you do all day? I would also like to know what you can help me with today, and how long you have been doing it.',
  );
  const wav = join(dir, 'q.wav');
  writeFileSync(wav, writeWav(speech.samples, speech.sampleRate));
  question = join(dir, 'q.mp3');
  await ffmpeg(['-y', '-i', wav, '-ar', '44100', '-ac', '2', question]);
});

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

/** `sessions live --mic-file` the question, run once per set of flags (real-time media). */
const liveMicFile = sharedRuns((...flags: string[]) =>
  cli(['--json', 'sessions', 'live', '--persona', 'ava', '--mic-file', question, ...flags], env()),
);
/**
 * `--turns 1 --record`, read by two tests (what it printed; what it recorded), instead of one
 * run without and one with `--record`.
 */
const recordedOut = join(dir, 'live.mp4');
const spokenSession = () => liveMicFile('--turns', '1', '--record', recordedOut);
/** Without `--turns`: the session ends once the file's reply has been spoken. */
const untilEndSession = () => liveMicFile('--session-cap-seconds', '60');

describe('avatar sessions live --mic-file --json', () => {
  it('prints partials, then the turn, and ends releasing the seat with its reason', async () => {
    const r = await spokenSession();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    const kinds = ev.map((e) => e.event);
    expect(kinds[0]).toBe('minted');
    expect(kinds).toContain('connected');
    expect(ev.find((e) => e.event === 'mic')).toMatchObject({ source: question });
    expect(ev.find((e) => e.event === 'mic')!.duration_ms).toBeGreaterThan(6000);
    const sessionId = ev[0]!.session_id as string;
    const partial = ev.findIndex((e) => e.event === 'partial');
    const turn = ev.findIndex((e) => e.event === 'turn' && !e.greeting);
    expect(partial).toBeGreaterThan(0);
    expect(turn).toBeGreaterThan(partial);
    expect(ev[turn]!.text.length).toBeGreaterThan(0);
    expect(ev[turn]!.reply.length).toBeGreaterThan(0);
    expect(ev.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      released: true,
      turns: 1,
    });
    expect(ev.every((e) => typeof e.t === 'number')).toBe(true);
    // The file is the user: it starts once the greeting has been spoken, which it does not cut off.
    const greeted = ev.findIndex((e) => e.event === 'reply_media' && e.greeting);
    expect(greeted).toBeGreaterThan(0);
    expect(ev.findIndex((e) => e.event === 'mic')).toBeGreaterThan(greeted);
    expect(ev.find((e) => e.event === 'turn' && e.greeting)!.reply.length).toBeGreaterThan(0);
    // The seat is free and the session over on the control plane.
    expect((await h.api(`/api/v1/sessions/${sessionId}`)).body.status).toBe('ended');
  }, 120_000);

  it('without --turns, a finished --mic-file ends the session once its reply has been spoken, and says so at the start (issue 24 item 10)', async () => {
    const r = await untilEndSession();
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    expect(ev.find((e) => e.event === 'notice')?.message).toMatch(
      /ends once the reply to what .*q\.mp3 says has been spoken/,
    );
    expect(ev.filter((e) => e.event === 'turn' && !e.greeting).length).toBeGreaterThan(0);
    expect(ev.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      detail: 'end of the mic file',
      released: true,
    });
  }, 90_000);

  it('--record and the reply media: byte counts per reply, and a file ffmpeg reads back with video and audio as long as the session', async () => {
    const out = recordedOut;
    const r = await spokenSession();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    const kinds = ev.map((e) => e.event);
    expect(kinds[0]).toBe('minted');
    const sessionId = ev[0]!.session_id as string;
    const partial = ev.findIndex((e) => e.event === 'partial');
    const turn = ev.findIndex((e) => e.event === 'turn' && !e.greeting);
    expect(partial).toBeGreaterThan(0);
    expect(turn).toBeGreaterThan(partial);
    expect(ev[turn]).toMatchObject({ text: expect.any(String), reply: expect.any(String) });
    expect(ev[turn]!.reply.length).toBeGreaterThan(0);
    expect(ev.find((e) => e.event === 'media_init')?.mime).toMatch(
      /^video\/mp4; codecs="avc1\.[0-9a-fA-F]{6}/,
    );
    const reply = ev.find((e) => e.event === 'reply_media' && e.seq === ev[turn]!.seq);
    expect(reply).toMatchObject({ spoken: true });
    expect(reply!.bytes).toBeGreaterThan(10_000);
    const ended = ev.at(-1)!;
    expect(ended).toMatchObject({ event: 'ended', reason: 'turns_done', released: true, turns: 1 });
    expect(ev.every((e) => typeof e.t === 'number')).toBe(true);
    // The seat is free and the session over on the control plane.
    expect((await h.api(`/api/v1/sessions/${sessionId}`)).body.status).toBe('ended');

    // --record: a file ffmpeg reads back with video and audio as long as the session.
    const rec = ev.find((e) => e.event === 'recorded')!;
    expect(rec).toMatchObject({ path: out, remuxed: true });
    const meta = await parseFile(out);
    const tracks = meta.format.trackInfo.map((t) => String(t.codecName));
    expect(tracks.some((c) => /avc|264/i.test(c))).toBe(true);
    expect(tracks.some((c) => /aac|mp4a|opus/i.test(c))).toBe(true);
    expect(Math.abs(meta.format.duration! - ended.duration_s)).toBeLessThan(1.5);
    const decoded = await ffmpeg([
      '-i',
      out,
      '-map',
      '0:a',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ]);
    expect(Math.abs(decoded.length / 32000 - ended.duration_s)).toBeLessThan(1.5);
  }, 120_000);

  it('without a TTY it prints one line per event and says why it ended', async () => {
    const r = await cli(
      [
        'sessions',
        'live',
        '--persona',
        'leo',
        '--config',
        '{"greeting_enabled":false}',
        '--say',
        'Tell me about yourself',
        '--turns',
        '1',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\] minted session [0-9a-f-]{36} \(cap \d+ s, protocol 1\)/);
    expect(r.stdout).toMatch(/\] sent \(typed\): Tell me about yourself/);
    expect(r.stdout).toMatch(/\] you: Tell me about yourself\n.*\] avatar: \S+/);
    expect(r.stdout).toMatch(
      /\] ended: the requested turns are done after [\d.]+ s, 1 turn; seat released\n$/,
    );
  }, 120_000);

  it('--say lines wait their turn: the greeting and each reply are heard in full before the next line', async () => {
    const r = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--say',
        'Where can I find the settings?',
        'How do I invite my team?',
        '--turns',
        '2',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    // A typed turn cuts off a reply in progress (docs/edge.md): none was cut here.
    expect(ev.filter((e) => e.event === 'notice' && /interrupted/.test(String(e.message)))).toEqual(
      [],
    );
    const turns = ev.filter((e) => e.event === 'turn');
    expect(turns.map((t) => (t.greeting ? 'greeting' : t.text))).toEqual([
      'greeting',
      'Where can I find the settings?',
      'How do I invite my team?',
    ]);
    const media = ev.filter((e) => e.event === 'reply_media');
    expect(media).toHaveLength(3);
    for (const m of media) expect(m).toMatchObject({ spoken: true });
    // The greeting's media says it is the greeting (the line view prints "greeting media").
    expect(media.map((m) => m.greeting === true)).toEqual([true, false, false]);
    // The second line was sent only after the first reply's media was all in.
    const at = (pred: (e: Record<string, unknown>) => boolean) => ev.findIndex(pred);
    expect(at((e) => e.event === 'said' && e.text === 'How do I invite my team?')).toBeGreaterThan(
      at((e) => e.event === 'reply_media' && e.seq === 2),
    );
  }, 60_000);

  it('--protocol 2 talks over the one /v2/session socket (docs/protocol-v2.md)', async () => {
    const r = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--protocol',
        '2',
        '--config',
        '{"greeting_enabled":false}',
        '--say',
        'Tell me about yourself',
        '--turns',
        '1',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    expect(ev[0]).toMatchObject({ event: 'minted', protocol: 2 });
    expect(ev.find((e) => e.event === 'turn' && !e.greeting)).toMatchObject({
      text: 'Tell me about yourself',
      reply: expect.stringMatching(/\S/),
    });
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done', released: true });
  }, 30_000);

  it('the mic is gated while replies play out loud, and never with --headphones', async () => {
    // A stand-in `play` (the player the CLI picks from PATH) that swallows the audio.
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'play'), '#!/bin/sh\nexec cat > /dev/null\n', { mode: 0o755 });
    const silence = join(dir, 'silence.wav');
    await ffmpeg(['-y', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '1', silence]);
    const args = [
      '--json',
      'sessions',
      'live',
      '--persona',
      'ava',
      '--play',
      '--mic-file',
      silence,
      '--say',
      'Tell me about yourself',
      '--turns',
      '1',
    ];
    const pathEnv = () => ({ ...env(), PATH: `${bin}:${process.env.PATH}` });
    // Two sessions side by side (the emulator has two seats): each waits on real-time replies.
    const [gated, free] = await Promise.all([
      cli(args, pathEnv()),
      cli([...args, '--headphones'], pathEnv()),
    ]);
    expect(gated.code).toBe(0);
    const gates = events(gated.stdout)
      .filter((e) => e.event === 'mic_gate')
      .map((e) => e.gated);
    expect(gates[0]).toBe(true);
    expect(gates).toContain(false);
    expect(free.code).toBe(0);
    expect(events(free.stdout).filter((e) => e.event === 'mic_gate')).toEqual([]);
    expect(events(free.stdout).some((e) => e.event === 'reply_media' && e.spoken)).toBe(true);
  }, 90_000);

  it('--mic records through node-record-lpcm16 and the machine recorder (here a stand-in sox speaking the question in real time)', async () => {
    const bin = join(dir, 'micbin');
    mkdirSync(bin, { recursive: true });
    const { ffmpegPath: ffmpegBin } = await import('../src/media/ffmpeg.js');
    // node-record-lpcm16 runs `sox ... -`: raw 16 kHz PCM16 on stdout, at real-time pace, then silence.
    const padded = join(dir, 'q-padded.wav');
    await ffmpeg([
      '-y',
      '-i',
      question,
      '-af',
      'apad',
      '-t',
      '20',
      '-ar',
      '16000',
      '-ac',
      '1',
      padded,
    ]);
    writeFileSync(
      join(bin, 'sox'),
      `#!/bin/sh\nexec "${ffmpegBin()}" -hide_banner -loglevel error -re -i "${padded}" -f s16le -acodec pcm_s16le -ar 16000 -ac 1 -\n`,
      { mode: 0o755 },
    );
    // node-record-lpcm16 spawns with the process environment, so the stand-in must be on its PATH too.
    vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);
    const r = await cli(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--config',
        '{"greeting_enabled":false}',
        '--mic',
        '--turns',
        '1',
      ],
      {
        ...env(),
        PATH: `${bin}:${process.env.PATH}`,
      },
    );
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    vi.unstubAllEnvs();
    expect(ev.find((e) => e.event === 'mic')).toMatchObject({ source: 'microphone (sox)' });
    expect(ev.filter((e) => e.event === 'error')).toEqual([]);
    expect(ev.find((e) => e.event === 'turn' && !e.greeting)?.text.length).toBeGreaterThan(0);
    expect(ev.at(-1)).toMatchObject({ event: 'ended', reason: 'turns_done', released: true });
  }, 120_000);

  const liveRun = (args: string[]) => watchedCli(args, env());

  it('a session released elsewhere ends with reason edge_closed, and the edge says why', async () => {
    const live = liveRun(['--json', 'sessions', 'live', '--persona', 'ava']);
    const minted = await live.until('minted');
    await live.until('connected');
    await h.api(`/api/v1/sessions/${minted.session_id}/release`, { body: {} });
    expect(await live.code).toBe(0);
    expect(live.lines.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'edge_closed',
      detail: expect.stringMatching(/released/),
      released: true,
    });
  }, 30_000);

  it('Ctrl-C ends the session, releases the seat and exits 130', async () => {
    const live = liveRun(['--json', 'sessions', 'live', '--persona', 'ava']);
    const minted = await live.until('connected').then(() => live.lines[0]!);
    process.emit('SIGINT');
    expect(await live.code).toBe(130);
    expect(live.lines.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'interrupted',
      released: true,
    });
    expect((await h.api(`/api/v1/sessions/${minted.session_id}`)).body.status).toBe('ended');
  }, 30_000);

  it('bad flags are usage errors before anything is minted', async () => {
    expect(
      (await cli(['sessions', 'live', '--persona', 'ava', '--protocol', '3'], env())).stderr,
    ).toMatch(/--protocol must be 1 or 2/);
    expect((await cli(['sessions', 'live', '--mic-file', question], env())).stderr).toMatch(
      /--persona <key>/,
    );
    const missing = await cli(
      ['sessions', 'live', '--persona', 'ava', '--mic-file', join(dir, 'none.wav')],
      env(),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/none.wav: no such file/);
    const turns = await cli(['sessions', 'live', '--persona', 'ava', '--turns', '0'], env());
    expect(turns.stderr).toMatch(/--turns must be a whole number of at least 1 \(got 0\)/);
    const rec = await cli(
      ['sessions', 'live', '--persona', 'ava', '--record', join(dir, 'no', 'such', 'x.mp4')],
      env(),
    );
    expect(rec.code).toBe(2);
    // CLI error lines wrap at the terminal width: read them as one line.
    expect(rec.stderr.replace(/\s*\n\s*/g, ' ')).toMatch(
      /--record .*x.mp4: cannot write in .*such \(does the folder exist\?\)/,
    );
    const noRec = await cli(['sessions', 'live', '--persona', 'ava', '--mic'], {
      ...env(),
      PATH: '',
    });
    expect(noRec.code).toBe(2);
    expect(noRec.stderr.replace(/\s*\n\s*/g, ' ')).toMatch(
      /install a recorder: sudo apt-get install sox/,
    );
  });
});
