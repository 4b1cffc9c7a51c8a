/**
 * Where reply audio goes (issue 9): the `speaker` package when it is installed (run in a
 * child process: with no audio device it aborts its process, which must not be ours,
 * MEDIA-NOTES), else a player the machine has. Each takes 24 kHz mono PCM16 on stdin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { hasPackage, installHint, which } from './system-pieces.js';

export const OUT_RATE = 24_000;

export interface AudioOutChoice {
  name: string;
  cmd: string;
  args: string[];
}

const SPEAKER_CHILD = `
const Speaker = require(process.argv[1]);
const s = new Speaker({ channels: 1, bitDepth: 16, sampleRate: ${OUT_RATE} });
s.on('error', (e) => { console.error(String(e && e.message || e)); process.exit(1); });
process.stdin.pipe(s);
`;

/** The first audio output this machine has, or undefined. `afplay` cannot read a stream, so macOS needs sox or speaker. */
export function chooseAudioOut(env = process.env): AudioOutChoice | undefined {
  const r = String(OUT_RATE);
  if (hasPackage('speaker')) {
    const mod = createRequire(import.meta.url).resolve('speaker');
    return { name: 'speaker', cmd: process.execPath, args: ['-e', SPEAKER_CHILD, mod] };
  }
  // Spawned by the path found in `env` (the PATH that was checked), not looked up again.
  const play = which('play', env);
  if (play)
    return {
      name: 'play',
      cmd: play,
      args: ['-q', '-t', 'raw', '-r', r, '-e', 'signed', '-b', '16', '-c', '1', '-'],
    };
  const aplay = which('aplay', env);
  if (aplay)
    return {
      name: 'aplay',
      cmd: aplay,
      args: ['-q', '-t', 'raw', '-f', 'S16_LE', '-r', r, '-c', '1'],
    };
  const ffplay = which('ffplay', env);
  if (ffplay) {
    return {
      name: 'ffplay',
      cmd: ffplay,
      args: ['-nodisp', '-loglevel', 'error', '-f', 's16le', '-ar', r, '-ac', '1', '-i', 'pipe:0'],
    };
  }
  return undefined;
}

export function missingAudioOutMessage(): string {
  return `no audio output for replies: ${installHint('player')}. Use --record out.mp4 to keep the reply video instead.`;
}

/** A running output; it reports failure once (device missing, player exited) and then swallows writes. */
export class AudioOut {
  private child: ChildProcess | undefined;
  private failed = false;

  constructor(
    readonly choice: AudioOutChoice,
    private readonly onFail: (message: string) => void,
  ) {
    // Its own process group, so a terminal Ctrl-C does not cut the reply off with an error; it ends on stdin EOF.
    const p = spawn(choice.cmd, choice.args, { stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    this.child = p;
    let err = '';
    p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    p.stdin!.on('error', () => undefined);
    p.on('error', (e) => this.fail(`${choice.name}: ${e.message}`));
    p.on('exit', (code, signal) => {
      if (this.child && (code !== 0 || signal)) {
        this.fail(
          `${choice.name} stopped (${signal ?? `exit ${code}`}): ${err.trim().split('\n').pop() || 'no audio device?'}`,
        );
      }
      this.child = undefined;
    });
  }

  write(pcm: Buffer): void {
    if (!this.failed && this.child?.stdin?.writable) this.child.stdin.write(pcm);
  }

  close(): void {
    const c = this.child;
    this.child = undefined;
    c?.stdin?.end();
    // A player drains what it has, but never outlives the session by much.
    if (c) setTimeout(() => c.kill(), 1500).unref();
  }

  private fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.onFail(message);
  }
}
