/**
 * Streaming recognition with pocketsphinx (issue 15 item 2): one long-lived
 * `pocketsphinx_continuous` per live session, its model loaded once, hearing each
 * utterance while it is spoken. Its input is a FIFO (`-infile /dev/fd/3`, raw 16 kHz PCM16):
 * reading /dev/stdin fails when Node spawns it (a socketpair, MEDIA-NOTES); the FIFO is
 * opened read-write here (opening never waits for the reader), handed over as fd 3, and its
 * name removed at once. pocketsphinx ends its own
 * utterances after ~0.5 s of silence and prints each hypothesis with word timings (`-time
 * yes`) at once, so by the time the turn detector's 700 ms hangover ends the words are in.
 * The stream carries only utterance audio (pre-roll, speech, hangover) and a short pad of
 * zeros after each end; times are positions in it, so each utterance takes the words timed
 * inside its own span. The decoder starts from a speech-like cepstral mean (warm-model.ts)
 * and adapts it over the session; it decodes with the session's language model when given one
 * (lm/session-lm.ts: the file is removed once loaded). Interim hypotheses (a pause inside the utterance) are the partials.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { StreamBehind, type Recognition, type RecognitionStream } from '../recognizer.js';
import { parseTimedWords, type TimedWord } from './segments.js';
import { ASR_SAMPLE_RATE } from './wav.js';

/**
 * Silence (10 ms frames) that ends pocketsphinx's own utterance: 0.2 s, not its 0.5 s
 * default, so a pause between sentences gives a partial and the last words come sooner.
 */
const POSTSPEECH_FRAMES = 20;
/** Zeros written after an utterance so pocketsphinx ends its own there (its end needs 0.5 s of silence). */
const PAD_S = 0.6;
/**
 * Longest wait for the last hypothesis once the decoder is up and the utterance ended, plus
 * the utterance's length; past it `end()` rejects with StreamBehind (batch decides). The
 * wait ends sooner when the decoder is seen idle on an empty FIFO (`caughtUp`).
 */
export const STREAM_FINAL_WAIT_MS = 3000;
/** How often the decoder's state is looked at while a final result is awaited. */
const POLL_MS = 25;

export interface StreamTimers {
  setTimeout(fn: () => void, ms: number): { cancel(): void };
}

const realTimers: StreamTimers = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

export interface PocketsphinxStreamOptions {
  binary: string;
  timers?: StreamTimers;
  /** Called once when the process is gone (the recogniser frees its slot). */
  onClose?: () => void;
  /** Acoustic model dir (`-hmm`): the warm one (warm-model.ts). */
  hmm?: string;
  /** The session's language model (lm/session-lm.ts): a private file, removed once loaded. */
  lm?: () => Promise<{ path: string; remove: () => Promise<void> }>;
}

interface Utterance {
  startS: number;
  lastSpeechS: number;
}

export class PocketsphinxStream implements RecognitionStream {
  onPartial: ((text: string) => void) | null = null;
  private child: ChildProcess | null = null;
  private fifo: FileHandle | null = null;
  private opening: Promise<void>;
  /** Audio written or queued, in samples: the stream's timeline. */
  private pos = 0;
  private writes: Promise<unknown> = Promise.resolve();
  private pendingWrites = 0;
  private words: TimedWord[] = [];
  /** How far pocketsphinx has reported (the end of its last hypothesis), in s. */
  private heardToS = -1;
  private utt: Utterance | null = null;
  private failed: Error | null = null;
  private closed = false;
  private stdout = '';
  private waiters: (() => void)[] = [];
  private released = false;
  /** The model is loaded and pocketsphinx reads the stream. */
  private decoding = false;
  private readonly timers: StreamTimers;
  private removeLm: (() => Promise<void>) | null = null;

  constructor(private readonly opts: PocketsphinxStreamOptions) {
    this.timers = opts.timers ?? realTimers;
    this.opening = this.start().catch((e: Error) => this.fail(e));
  }

  private async start(): Promise<void> {
    const lm = this.opts.lm ? await this.opts.lm() : null;
    this.removeLm = lm ? lm.remove : null;
    const dir = await mkdtemp(join(tmpdir(), 'avatar-asr-stream-'));
    let reader: FileHandle;
    try {
      const path = join(dir, 'mic.raw');
      await promisify(execFile)('mkfifo', [path]);
      // O_RDWR: Linux opens a FIFO read-write at once, whether or not a reader has it open.
      this.fifo = await open(path, 'r+');
      // The child gets a read-only end (there is a writer now, so this opens at once): if this
      // process dies, the last writer is gone and pocketsphinx reads EOF and exits.
      reader = await open(path, 'r');
    } finally {
      // The FIFO lives on through the open descriptor: no name is left behind, whatever happens.
      await rm(dir, { recursive: true, force: true });
    }
    if (this.closed) {
      await reader.close();
      return this.dispose();
    }
    // pocketsphinx reads it as /dev/fd/3 (a FIFO reopens through /proc; a socketpair would not).
    // Its log goes to stderr: the line continuous.c prints as it starts reading says the model is loaded.
    const child = spawn(
      this.opts.binary,
      [
        '-infile',
        '/dev/fd/3',
        '-time',
        'yes',
        '-vad_postspeech',
        String(POSTSPEECH_FRAMES),
        ...(this.opts.hmm ? ['-hmm', this.opts.hmm] : []),
        ...(lm ? ['-lm', lm.path] : []),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe', reader.fd],
      },
    );
    await reader.close();
    this.child = child;
    let log = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (c: string) => {
      if (this.decoding) return;
      log = (log + c).slice(-4000);
      if (/continuous\.c\(\d+\)/.test(log)) {
        this.decoding = true;
        void this.dropLm(); // loaded: the file is not needed any more
        this.wake();
      }
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (c: string) => this.read(c));
    child.on('error', (e) => this.fail(new Error(`cannot run ${this.opts.binary}: ${e.message}`)));
    child.on('close', (code, sig) => {
      if (!this.closed)
        this.fail(new Error(`${this.opts.binary} stopped (${sig ?? `exit ${code}`})`));
      this.release();
    });
  }

  begin(samples: Int16Array): void {
    const startS = this.pos / ASR_SAMPLE_RATE;
    this.write(samples);
    this.utt = { startS, lastSpeechS: this.pos / ASR_SAMPLE_RATE };
    // Words before this utterance are never asked for again.
    this.words = this.words.filter((w) => w.endS > startS);
  }

  push(samples: Int16Array, speech: boolean): void {
    if (!this.utt) return;
    this.write(samples);
    if (speech) this.utt.lastSpeechS = this.pos / ASR_SAMPLE_RATE;
  }

  async end(): Promise<Recognition> {
    const u = this.utt;
    this.utt = null;
    if (!u) return { text: '', recognised: false, language: 'en' };
    const endS = this.pos / ASR_SAMPLE_RATE;
    this.write(new Int16Array(Math.round(PAD_S * ASR_SAMPLE_RATE)));
    // Done when pocketsphinx has reported past the last speech heard (within 0.3 s: its own
    // VAD ends a word earlier than ours), or when it stays silent (it heard no speech).
    const done = () => this.heardToS >= u.lastSpeechS - 0.3;
    await this.until(
      () => this.failed !== null || done(),
      STREAM_FINAL_WAIT_MS + (endS - u.startS) * 1000,
    );
    if (this.failed) throw this.failed;
    // No hypothesis reached the last speech: pocketsphinx heard no speech there (a cough) or
    // is behind (a loaded machine). Either way the batch recogniser decides, on the utterance.
    if (!done())
      throw new StreamBehind(
        `pocketsphinx reported up to ${this.heardToS.toFixed(2)} s of ${u.lastSpeechS.toFixed(2)} s`,
      );
    const text = this.wordsIn(u.startS, endS);
    return {
      text,
      recognised: text.length > 0,
      language: 'en',
      segments: text ? [{ startS: 0, endS: endS - u.startS, text }] : [],
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake();
    void this.opening.then(() => this.dispose());
  }

  private wordsIn(fromS: number, toS: number): string {
    return this.words
      .filter((w) => w.endS > fromS - 0.2 && w.startS < toS + 0.2)
      .map((w) => w.text)
      .join(' ');
  }

  private write(samples: Int16Array): void {
    this.pos += samples.length;
    if (this.failed || this.closed) return;
    const buf = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    const copy = Buffer.from(buf); // the caller may reuse its frame
    this.pendingWrites++;
    this.writes = this.writes.then(async () => {
      await this.opening;
      if (this.fifo && !this.failed && !this.closed)
        await this.fifo.write(copy).catch((e: Error) => this.fail(e));
      this.pendingWrites--;
    });
  }

  private read(chunk: string): void {
    this.stdout += chunk;
    const nl = this.stdout.lastIndexOf('\n');
    if (nl < 0) return;
    const lines = this.stdout.slice(0, nl + 1);
    this.stdout = this.stdout.slice(nl + 1);
    for (const line of lines.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length === 4 && /^\d+(\.\d+)?$/.test(f[2]!))
        this.heardToS = Math.max(this.heardToS, Number(f[2]));
    }
    this.words.push(...parseTimedWords(lines));
    const u = this.utt;
    if (u && this.onPartial) {
      const text = this.wordsIn(u.startS, Infinity);
      if (text) this.onPartial(text);
    }
    this.wake();
  }

  /**
   * Resolves when `done()`; when the decoder has read all the audio and sits idle twice in a
   * row (whatever it heard is printed); or `timeoutMs` after the decoder is up (a model still
   * loading does not count).
   */
  private until(done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: { cancel(): void } | null = null;
      let poll: { cancel(): void } | null = null;
      let idle = 0;
      let settled = false;
      const finish = () => {
        settled = true;
        timer?.cancel();
        poll?.cancel();
        resolve();
      };
      const check = () => {
        if (settled) return;
        if (done() || this.closed) return finish();
        if (this.decoding && !timer) timer = this.timers.setTimeout(finish, timeoutMs);
        this.waiters.push(check);
      };
      const look = () => {
        if (settled) return;
        idle = this.caughtUp() ? idle + 1 : 0;
        // Twice, POLL_MS apart: a hypothesis printed just before is read in between.
        if (idle >= 2) return finish();
        poll = this.timers.setTimeout(look, POLL_MS);
      };
      check();
      look();
    });
  }

  /** The decoder is up, every write reached the FIFO, and it sleeps (Linux: waiting on the empty FIFO). */
  private caughtUp(): boolean {
    const pid = this.child?.pid;
    if (!this.decoding || this.pendingWrites > 0 || !pid) return false;
    try {
      // /proc/PID/stat: "pid (comm) S ..."; S is an interruptible sleep (R running, D disk).
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] === 'S';
    } catch {
      return false;
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private fail(e: Error): void {
    if (this.failed || this.closed) return;
    this.failed = e;
    this.wake();
    void this.dispose();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.opts.onClose?.();
  }

  private async dropLm(): Promise<void> {
    const remove = this.removeLm;
    this.removeLm = null;
    await remove?.().catch(() => undefined);
  }

  private async dispose(): Promise<void> {
    await this.dropLm();
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    else this.release();
    const fifo = this.fifo;
    this.fifo = null;
    await fifo?.close().catch(() => undefined);
  }
}
