/**
 * Debian's espeak-ng as an optional system voice for the languages flite cannot speak
 * (issue 30 item 4; docs/media.md "espeak-ng"). Nothing is bundled: espeak-ng (GPL-3.0)
 * runs as a separate program when installed (`apt-get install espeak-ng`), so this package
 * stays MIT. Each call runs
 * `espeak-ng -b 1 -v <voice> -s <wpm> -x -w <tmp>.wav --stdin` with the text on stdin:
 * the WAV (22.05 kHz) goes to a temporary file (written to stdout it interleaves with the
 * phonemes), the phonemes (`-x`) to stdout. The audio is resampled to the pipeline's 16 kHz
 * and the phonemes are timed over its voiced regions (espeak-phones.ts). At most
 * `maxConcurrent` processes run at once (default 2, like the pocketsphinx recogniser), the
 * rest wait their turn; a run is killed after `timeoutMs`.
 *
 * Mandarin uses the `cmn-latn-pinyin` voice: Debian's espeak-ng 1.51 `cmn` voice reads the
 * tone digits of its own pinyin out in English ("ni three hao three"; espeak-ng issues
 * #1028, #1370); `cmn-latn-pinyin` says the same characters as Mandarin.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { languageCode } from '../brain/language.js';
import type { Speech, SynthesizeOptions, Voice } from '../voice.js';
import { Limiter } from '../limit.js';
import { runProgram } from '../run-program.js';
import { which } from '../which.js';
import { parseEspeakPhonemes, timePhones, voicedRegions } from './espeak-phones.js';
import { wordTokens } from './marks.js';
import { readWav, resample } from './pcm.js';
import { FLITE_SAMPLE_RATE } from './flite.js';

export const ESPEAK_BINARY = 'espeak-ng';
/** What to install when it is missing (the emulator's start log names it). */
export const ESPEAK_INSTALL = 'apt-get install espeak-ng';
/** espeak-ng's default pace, words per minute. */
const WPM = 175;

export interface EspeakProbe {
  binary: string;
  /** Primary language subtag -> the espeak-ng voice that speaks it. */
  languages: Map<string, string>;
}

/** espeak-ng on PATH and the languages it has voices for; null when it is not installed. */
export function probeEspeak(
  env: Record<string, string | undefined> = process.env,
): EspeakProbe | null {
  const binary = which(ESPEAK_BINARY, env);
  if (!binary) return null;
  const run = spawnSync(binary, ['--voices'], { encoding: 'utf8', timeout: 10_000 });
  if (run.status !== 0) return null;
  return { binary, languages: espeakLanguages(run.stdout) };
}

/**
 * `espeak-ng --voices` as primary subtag -> voice: the voice named exactly by the subtag
 * (`de`), else the first of its regional voices (`fr-fr`); Mandarin is `cmn-latn-pinyin`.
 */
export function espeakLanguages(listing: string): Map<string, string> {
  const names: string[] = [];
  for (const line of listing.split('\n').slice(1)) {
    const lang = line.trim().split(/\s+/)[1];
    if (lang) names.push(lang.toLowerCase());
  }
  const map = new Map<string, string>();
  for (const name of names) {
    const primary = languageCode(name.split('-')[0]);
    if (primary && (!map.has(primary) || name === primary)) map.set(primary, name);
  }
  if (names.includes('cmn-latn-pinyin')) map.set('zh', 'cmn-latn-pinyin');
  else if (names.includes('cmn')) map.set('zh', 'cmn');
  map.delete('en'); // flite speaks English
  return map;
}

export interface EspeakOptions extends EspeakProbe {
  maxConcurrent?: number;
  /** Longest a run may take (default 30 s). */
  timeoutMs?: number;
}

export class EspeakVoice implements Voice {
  readonly name = 'espeak-ng';
  readonly voices: readonly { id: string; lang: string }[];
  private readonly limit: Limiter;

  constructor(private readonly opts: EspeakOptions) {
    this.limit = new Limiter(opts.maxConcurrent ?? 2);
    this.voices = [...opts.languages].map(([lang, id]) => ({ id, lang }));
  }

  /** The espeak-ng voice for a language (tag or name), or null when it has none. */
  voiceFor(lang: string | null | undefined): string | null {
    const code = languageCode(lang);
    return (code && this.opts.languages.get(code)) ?? null;
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
    opts.signal?.throwIfAborted();
    const voice = this.voiceFor(opts.lang);
    if (!voice) throw new Error(`espeak-ng has no voice for "${opts.lang ?? ''}"`);
    const { pitchHz, rate } = opts.shape ?? {};
    const wpm = Math.round(WPM * Math.min(2.5, Math.max(0.5, rate ?? 1)));
    // espeak's voices are male; a pitch target of a woman's voice takes its female variant.
    const variant = pitchHz !== undefined && pitchHz >= 160 ? '+f3' : '';
    const spoken = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || '.';
    const { wav, phonemes } = await this.limit.run(() =>
      this.run(
        ['-b', '1', '-v', `${voice}${variant}`, '-s', String(wpm), '-x'],
        spoken,
        opts.signal,
      ),
    );
    opts.signal?.throwIfAborted();
    const read = readWav(wav);
    const samples = resample(read.samples, read.sampleRate, FLITE_SAMPLE_RATE);
    const durationMs = Math.round((samples.length / FLITE_SAMPLE_RATE) * 1000);
    const timed = timePhones(
      parseEspeakPhonemes(phonemes),
      voicedRegions(samples, FLITE_SAMPLE_RATE),
      durationMs,
    );
    const tokens = wordTokens(spoken);
    const speech: Speech = {
      sampleRate: FLITE_SAMPLE_RATE,
      samples,
      durationMs,
      phones: timed.phones,
    };
    // espeak's words match the text's when no number or abbreviation was expanded; else the
    // reply's barge-in accounting spreads the text over the time played (saidPrefix).
    if (tokens.length > 0 && tokens.length === timed.words.length)
      speech.words = tokens.map((t, i) => ({ text: t.spoken, ...timed.words[i]! }));
    return speech;
  }

  private async run(
    args: string[],
    text: string,
    signal?: AbortSignal,
  ): Promise<{ wav: Buffer; phonemes: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'avatar-tts-'));
    const file = join(dir, 'o.wav');
    try {
      const phonemes = await runProgram(this.opts.binary, [...args, '-w', file, '--stdin'], {
        stdin: text,
        ...(signal ? { signal } : {}),
        timeoutMs: this.opts.timeoutMs ?? 30_000,
      });
      return { wav: await readFile(file), phonemes };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
