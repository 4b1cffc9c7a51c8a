/**
 * Reply audio from the /mse stream: the fMP4 bytes, in arrival order, into ffmpeg, which
 * decodes the audio track to 24 kHz mono PCM16 for the output. The decoded level also says
 * when the avatar is audibly speaking, which gates the mic (a terminal has no echo canceller).
 */
import type { ChildProcess } from 'node:child_process';
import { levelDb } from '../../client/edge-mic.js';
import { AudioOut, OUT_RATE, type AudioOutChoice } from './audio-out.js';
import { spawnFfmpeg } from '../../media/ffmpeg.js';

/** Louder than this (dBFS over 100 ms) counts as the avatar speaking. */
const SPEAKING_DB = -45;
/** The gate stays shut this long after the last loud chunk (player buffering + room echo). */
const TAIL_MS = 600;
const CHUNK = (OUT_RATE / 10) * 2;

export interface ReplyAudioOptions {
  /** Where to play it; without one the audio is only decoded (speaking detection, --turns). */
  out?: AudioOutChoice;
  /** Called when the audible state flips (true: the avatar is speaking). */
  onSpeaking?(speaking: boolean): void;
  onFail(message: string): void;
  /** The output failed (no device, player exited): the replies are no longer audible. Else onFail. */
  onOutputFail?(message: string): void;
  /** Milliseconds, monotonic; injected for tests. */
  now?: () => number;
}

export class ReplyAudio {
  private decoder: ChildProcess | undefined;
  private readonly out: AudioOut | undefined;
  private pending = Buffer.alloc(0);
  private speaking = false;
  private lastLoud = -Infinity;
  private tail: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly opts: ReplyAudioOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.out = opts.out ? new AudioOut(opts.out, opts.onOutputFail ?? opts.onFail) : undefined;
    const d = spawnFfmpeg(
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'mp4',
        '-i',
        'pipe:0',
        '-vn',
        '-f',
        's16le',
        '-acodec',
        'pcm_s16le',
        '-ac',
        '1',
        '-ar',
        String(OUT_RATE),
        '-flush_packets',
        '1',
        'pipe:1',
      ],
      // Its own process group: a Ctrl-C in the terminal must not kill it before we close it (it ends on stdin EOF).
      { detached: true },
    );
    this.decoder = d;
    let err = '';
    d.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    d.on('error', (e) => opts.onFail(`reply audio decoder: ${e.message}`));
    d.on('exit', (code) => {
      if (this.decoder && code !== 0)
        opts.onFail(
          `reply audio decoder stopped: ${err.trim().split('\n').pop() || `exit ${code}`}`,
        );
      this.decoder = undefined;
    });
    d.stdout!.on('data', (pcm: Buffer) => this.onPcm(pcm));
  }

  get isSpeaking(): boolean {
    return this.speaking;
  }

  /** fMP4 bytes from /mse, init segment first. */
  write(bytes: Uint8Array): void {
    if (this.decoder?.stdin?.writable) this.decoder.stdin.write(bytes);
  }

  close(): void {
    const d = this.decoder;
    this.decoder = undefined;
    d?.stdin?.end();
    if (d) setTimeout(() => d.kill(), 1000).unref();
    if (this.tail) clearTimeout(this.tail);
    this.out?.close();
  }

  private onPcm(pcm: Buffer): void {
    this.out?.write(pcm);
    this.pending = Buffer.concat([this.pending, pcm]);
    while (this.pending.length >= CHUNK) {
      const chunk = this.pending.subarray(0, CHUNK);
      this.pending = this.pending.subarray(CHUNK);
      if (levelDb(chunk) > SPEAKING_DB) this.lastLoud = this.now();
    }
    this.update();
  }

  private update(): void {
    const loud = this.now() - this.lastLoud < TAIL_MS;
    if (loud !== this.speaking) {
      this.speaking = loud;
      this.opts.onSpeaking?.(loud);
    }
    if (loud) {
      if (this.tail) clearTimeout(this.tail);
      this.tail = setTimeout(() => this.update(), TAIL_MS).unref();
    }
  }
}
