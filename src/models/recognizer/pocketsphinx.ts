/**
 * Debian's pocketsphinx as the local recogniser, when installed (`apt-get install
 * pocketsphinx pocketsphinx-en-us`). Each call writes the audio to a temporary WAV and runs
 * `pocketsphinx_continuous -infile u.wav -logfn /dev/null -time yes` (MEDIA-NOTES: reading
 * /dev/stdin fails when spawned from Node). Cost measured there: ~0.5 s model load per
 * process plus ~0.17 CPU-s per audio second, ~106 MB while it runs, so at most
 * `maxConcurrent` processes run at once (default 2) and the rest wait their turn.
 * `stream()` is the streaming form live turns use (pocketsphinx-stream.ts: one process per
 * session, model loaded once); `transcribe()` stays for transcriptions.
 * Only the US English model is packaged: a request for another language is answered
 * `recognised: false` with a note, never English guesses for foreign speech.
 * The VAD gates it: audio without speech regions is not sent to pocketsphinx at all, and
 * words outside the regions are dropped (pocketsphinx makes words out of hiss).
 * Segments: pocketsphinx's word timings grouped by the VAD's speech regions (segments.ts).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { languageCode } from '../brain/language.js';
import type {
  Recognition,
  RecognitionContext,
  RecognitionStream,
  Recognizer,
} from '../recognizer.js';
import { Limiter } from '../limit.js';
import { PocketsphinxStream, type StreamTimers } from './pocketsphinx-stream.js';
import type { SpeechRegion } from '../vad/index.js';
import { groupWords, parseTimedWords, vadRegions, type TimedWord } from './segments.js';
import { ASR_SAMPLE_RATE, encodeWav } from './wav.js';
import { sessionArpa, writeArpa } from './lm/session-lm.js';
import { warmModel } from './warm-model.js';

export const POCKETSPHINX_BINARY = 'pocketsphinx_continuous';
export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface PocketsphinxProbe {
  /** Absolute path of pocketsphinx_continuous, or null. */
  binary: string | null;
  modelDir: string | null;
  /** Debian packages to install for the missing parts (empty when usable). */
  missing: string[];
}

/** Looks for the binary on PATH and the English model where Debian puts it. */
export function probePocketsphinx(
  env: Record<string, string | undefined> = process.env,
  modelDir = POCKETSPHINX_MODEL_DIR,
): PocketsphinxProbe {
  let binary: string | null = null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, POCKETSPHINX_BINARY);
    try {
      accessSync(p, constants.X_OK);
      binary = p;
      break;
    } catch {
      /* not here */
    }
  }
  const model = existsSync(modelDir) ? modelDir : null;
  const missing = [...(binary ? [] : ['pocketsphinx']), ...(model ? [] : ['pocketsphinx-en-us'])];
  return { binary, modelDir: model, missing };
}

export interface PocketsphinxOptions {
  /** Path of pocketsphinx_continuous (probePocketsphinx finds it). */
  binary: string;
  maxConcurrent?: number;
  /**
   * Most streams (long-lived processes, ~106 MB each) open at once (default 8); a session
   * past that recognises its utterances in batch.
   */
  maxStreams?: number;
  timers?: StreamTimers;
  /**
   * The model dir (default POCKETSPHINX_MODEL_DIR): `en-us/` (acoustic model, made warm:
   * warm-model.ts) and `cmudict-en-us.dict` (the words a session's language model may use).
   */
  modelDir?: string;
  /** false: streams decode with the default model (en-us.lm.bin), cold (benchmarks compare). */
  sessionModel?: false;
  /** The session's model text (default: sessionArpa, cached per context; tests inject a slow one). */
  arpa?: (context: RecognitionContext) => Promise<string>;
}

export class PocketsphinxRecognizer implements Recognizer {
  readonly name = 'pocketsphinx';
  readonly available = true;
  private streams = 0;
  /** Batch runs at once (`maxConcurrent`, default 2). */
  private readonly limiter: Limiter;
  /** Each session's model, asked for once (at `prepare`, else at its stream's open). */
  private readonly models = new WeakMap<RecognitionContext, Promise<string>>();

  constructor(private readonly opts: PocketsphinxOptions) {
    this.limiter = new Limiter(opts.maxConcurrent ?? 2);
  }

  /** The session's language model, built now (and cached) so its stream opens at once. */
  prepare(context: RecognitionContext): void {
    if (this.opts.sessionModel !== false) this.model(context).catch(() => undefined);
  }

  private model(context: RecognitionContext): Promise<string> {
    let m = this.models.get(context);
    if (!m) {
      const dict = join(this.opts.modelDir ?? POCKETSPHINX_MODEL_DIR, 'cmudict-en-us.dict');
      m = this.opts.arpa ? this.opts.arpa(context) : sessionArpa(context, dict);
      this.models.set(context, m);
      m.catch(() => this.models.delete(context));
    }
    return m;
  }

  /** A session's stream (pocketsphinx-stream.ts); null for another language or when every stream is taken. */
  stream(opts: { lang?: string; context?: RecognitionContext } = {}): RecognitionStream | null {
    const lang = languageCode(opts.lang);
    if ((lang && lang !== 'en') || this.streams >= (this.opts.maxStreams ?? 8)) return null;
    this.streams++;
    const modelDir = this.opts.modelDir ?? POCKETSPHINX_MODEL_DIR;
    const own = this.opts.sessionModel !== false;
    const context = opts.context;
    return new PocketsphinxStream({
      binary: this.opts.binary,
      ...(own ? { hmm: warmModel(join(modelDir, 'en-us')) } : {}),
      ...(own && context ? { lm: () => this.model(context).then(writeArpa) } : {}),
      ...(this.opts.timers ? { timers: this.opts.timers } : {}),
      onClose: () => this.streams--,
    });
  }

  async transcribe(
    samples: Int16Array,
    opts: { lang?: string; signal?: AbortSignal } = {},
  ): Promise<Recognition> {
    opts.signal?.throwIfAborted();
    const lang = languageCode(opts.lang);
    if (lang && lang !== 'en') {
      return {
        text: `[not recognised: the installed recogniser (pocketsphinx) has an English model only, not "${opts.lang}"; start with --asr-url for other languages]`,
        recognised: false,
      };
    }
    if (samples.length < ASR_SAMPLE_RATE / 10)
      return { text: '', recognised: false, language: 'en', segments: [] };
    // pocketsphinx finds words in noise and hiss; the VAD decides whether anyone spoke, and
    // words it heard outside the speech regions are dropped (never invented words).
    const regions = await vadRegions(samples);
    if (regions.length === 0) return { text: '', recognised: false, language: 'en', segments: [] };
    const words = inside(await this.limiter.run(() => this.run(samples, opts.signal)), regions);
    const segments = groupWords(words, regions);
    const text = segments.map((s) => s.text).join(' ');
    return { text, recognised: text.length > 0, language: 'en', segments };
  }

  /** Runs pocketsphinx on the samples; resolves with the timed words it heard. */
  private async run(samples: Int16Array, signal?: AbortSignal): Promise<TimedWord[]> {
    const dir = await mkdtemp(join(tmpdir(), 'avatar-asr-'));
    const file = join(dir, 'u.wav');
    try {
      await writeFile(file, encodeWav(samples));
      const audioMs = (samples.length / ASR_SAMPLE_RATE) * 1000;
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          this.opts.binary,
          ['-infile', file, '-logfn', '/dev/null', '-time', 'yes'],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
            signal,
            timeout: 30_000 + Math.ceil(2 * audioMs), // Node refuses a fractional timeout
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-500)));
        child.on('error', (e) =>
          reject(
            signal?.aborted
              ? signal.reason
              : new Error(`cannot run ${this.opts.binary}: ${e.message}`),
          ),
        );
        child.on('close', (code, sig) => {
          if (signal?.aborted) reject(signal.reason);
          else if (code === 0) resolve(stdout);
          else
            reject(
              new Error(
                `${this.opts.binary} failed (${sig ?? `exit ${code}`})${stderr.trim() ? `: ${stderr.trim()}` : ''}`,
              ),
            );
        });
      });
      return parseTimedWords(out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** Words overlapping a speech region (with 200 ms of slack for soft word edges). */
function inside(words: TimedWord[], regions: SpeechRegion[]): TimedWord[] {
  return words.filter((w) =>
    regions.some((r) => w.endS > r.startS - 0.2 && w.startS < r.endS + 0.2),
  );
}
