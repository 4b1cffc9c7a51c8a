/**
 * A reply's sound, encoded alone (visemes.ts splices the pictures): the clip's 16 kHz PCM
 * through an audio-only ffmpeg, AAC-LC mono 32 kHz 40 kb/s like the live encoder
 * (encoder.ts), written as ADTS and cut into raw AAC frames for the fMP4 audio track, frame k
 * carrying clip time k * 32 ms: sample time t plays at clip time t, as in a live encode.
 */
import type { ChildProcess } from 'node:child_process';
import { aacOutput, AUDIO_RATE, PCM_RATE, pcmInput } from './encoder.js';
import { LIVE_INPUT, spawnFfmpeg } from './ffmpeg.js';

const ARGS = [
  ...LIVE_INPUT,
  ...pcmInput('pipe:0'),
  // The fast coder: ~3 ms of CPU per media second against ~10 for the default two-loop
  // search (this machine), at the same bitrate and AudioSpecificConfig.
  ...aacOutput(),
  '-aac_coder',
  'fast',
  '-fflags',
  '+bitexact',
  '-flags:a',
  '+bitexact',
  '-flush_packets',
  '1',
  '-f',
  'adts',
  'pipe:1',
];

/**
 * Long-lived encoders shared by every session of the process (a new process per reply cost
 * more than the encode: 40 replies starting at once took 2.5 s of spawning on this machine).
 * Each reads one endless PCM stream; a job is written whole at a frame boundary, followed by
 * PAD_FRAMES of silence so its last frames come out (the encoder looks one frame ahead) and
 * the next job starts from silence. Output frame j of the stream decodes input frame j - 1
 * (the first frame is the priming), so a job written at input frame f owns output frames
 * f + 1 ... f + its frames. Frames between jobs are dropped.
 */
const POOL = 2;
const PAD_FRAMES = 8;
/** PCM_RATE samples per AAC frame (1024 samples at AUDIO_RATE). */
const IN_FRAME = (1024 * PCM_RATE) / AUDIO_RATE;

interface Job {
  first: number;
  count: number;
  got: number;
  onFrame: (frame: Buffer) => void;
  resolve: () => void;
  reject: (e: Error) => void;
  aborted: boolean;
}

class SharedEncoder {
  private p: ChildProcess | null = null;
  private written = 0; // input frames written
  private out = 0; // output frames received
  private jobs: Job[] = [];
  private pending: Buffer = Buffer.alloc(0);
  private err = '';
  /** Input frames written and not yet out: how busy this encoder is. */
  get backlog(): number {
    return this.p ? this.written - this.out : 0;
  }

  private start(): ChildProcess {
    const p = spawnFfmpeg(ARGS);
    this.p = p;
    this.written = 0;
    this.out = 0;
    this.pending = Buffer.alloc(0);
    this.err = '';
    p.stdout!.on('data', (d: Buffer) => this.data(d));
    p.stderr!.on('data', (d: Buffer) => (this.err = (this.err + d.toString()).slice(-300)));
    const gone = (why: string) => {
      if (this.p !== p) return;
      this.p = null;
      const jobs = this.jobs;
      this.jobs = [];
      for (const j of jobs) j.reject(new Error(`audio encoder ${why}: ${this.err.trim()}`));
    };
    p.on('error', (e) => gone(e.message));
    p.on('exit', (code, sig) => gone(`exited ${code ?? sig}`));
    this.idle();
    return p;
  }

  /** Nothing queued: the encoder never keeps Node alive. */
  private idle(): void {
    if (this.p) setRef(this.p, this.jobs.length > 0);
  }

  private data(d: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, d]) : d;
    // ADTS: 12-bit sync word, frame_length (13 bits, header included) at bits 30-42.
    while (this.pending.length >= 7) {
      if (this.pending[0] !== 0xff || (this.pending[1]! & 0xf0) !== 0xf0)
        return void this.p?.kill('SIGKILL');
      const len =
        ((this.pending[3]! & 3) << 11) | (this.pending[4]! << 3) | (this.pending[5]! >> 5);
      if (this.pending.length < len) break;
      const header = this.pending[1]! & 1 ? 7 : 9;
      const frame = Buffer.from(this.pending.subarray(header, len));
      this.pending = this.pending.subarray(len);
      const j = this.out++;
      const job = this.jobs[0];
      if (!job || j < job.first) continue;
      if (!job.aborted) job.onFrame(frame);
      if (++job.got === job.count) {
        this.jobs.shift();
        if (job.aborted) job.reject(new Error('encode aborted'));
        else job.resolve();
        this.idle();
      }
    }
  }

  encode(pcm: Int16Array, onFrame: (frame: Buffer) => void, signal?: AbortSignal): Promise<void> {
    const p = this.p ?? this.start();
    const frames = Math.ceil(pcm.length / IN_FRAME);
    return new Promise<void>((resolve, reject) => {
      const job: Job = {
        first: this.written + 1,
        count: frames,
        got: 0,
        onFrame,
        resolve,
        reject,
        aborted: false,
      };
      this.jobs.push(job);
      this.idle();
      signal?.addEventListener('abort', () => (job.aborted = true), { once: true });
      const body = Buffer.alloc((frames + PAD_FRAMES) * IN_FRAME * 2);
      Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).copy(body);
      this.written += frames + PAD_FRAMES;
      p.stdin!.write(body);
    });
  }
}

const pool: SharedEncoder[] = Array.from({ length: POOL }, () => new SharedEncoder());
type Refable = { ref?(): void; unref?(): void };

function setRef(p: ChildProcess, on: boolean): void {
  for (const s of [p, ...p.stdio] as Refable[]) (on ? s?.ref : s?.unref)?.call(s);
}

/** Audio encodes started in this process. */
export const aacStats = { encodes: 0 };

/**
 * Encode `pcm` (mono PCM16 at PCM_RATE, sample time t playing at clip time t; its first
 * 32 ms silent, as every clip's lead-in is) into raw AAC frames, each passed to
 * `onFrame` as it comes out: frame k plays at clip time k * 1024 / AUDIO_RATE, and there are
 * ceil(duration / 32 ms) of them. Resolves when the last has come out.
 */
export function encodeAac(
  pcm: Int16Array,
  onFrame: (frame: Buffer) => void,
  signal?: AbortSignal,
): Promise<void> {
  aacStats.encodes++;
  if (signal?.aborted) return Promise.reject(new Error('encode aborted'));
  const enc = pool.reduce((a, b) => (b.backlog < a.backlog ? b : a));
  return enc.encode(pcm, onFrame, signal);
}
