/**
 * The default Voice: flite (CMU, BSD-style licence) compiled to WASI, offline, 16 kHz mono
 * PCM16 with phone timings. Chosen over the espeak-ng WASM builds the issue names: those
 * are GPL-3.0 (this package is MIT), and MEDIA-NOTES measured flite faster and far better
 * recognised by local ASR (docs/media.md, docs/fidelity.md "Media (issue 8)").
 *
 * Shaping (VoiceShape): the base voice is `shape.voice` when named, else picked by pitch
 * (>= 160 Hz: the female `slt`, else the male `kal16`; both follow a pitch target, `rms`
 * ignores it); flite itself then moves the mean
 * pitch (`int_f0_target_mean`) and the pace (`duration_stretch` = 1 / rate), so nothing is
 * resampled or time-stretched after synthesis.
 *
 * Language: flite speaks English only. Text in another language is read with English
 * letter-to-sound rules (intelligible for Latin-script names, nonsense otherwise); text with
 * no Latin letters or digits produces a short silence rather than an error (docs/media.md).
 */
import type { SpeechMark, Speech, SynthesizeOptions, Voice } from '../voice.js';
import { alignCounts, parsePhoneTrace, phoneGroups, wordMarks, wordTokens } from './marks.js';
import { readWav, resample } from './pcm.js';
import { runFliteOffThread as runFlite } from './flite-thread.js';

export const FLITE_SAMPLE_RATE = 16000;

const VOICES = [
  { id: 'slt', lang: 'en-US', gender: 'female', f0: 175 },
  { id: 'rms', lang: 'en-US', gender: 'male', f0: 105 },
  { id: 'kal16', lang: 'en-US', gender: 'male', f0: 105 },
  { id: 'awb', lang: 'en-GB', gender: 'male', f0: 120 },
  { id: 'kal', lang: 'en-US', gender: 'male', f0: 105 },
] as const;

export class FliteVoice implements Voice {
  readonly name = 'flite';
  readonly voices = VOICES.map(({ id, lang, gender }) => ({ id, lang, gender }));

  constructor(private readonly defaultVoice = 'slt') {}

  /** The base voice for a shape: named, else closest by pitch (female above 160 Hz). */
  pickVoice(opts: SynthesizeOptions = {}): string {
    const named = opts.shape?.voice;
    if (named && VOICES.some((v) => v.id === named)) return named;
    const hz = opts.shape?.pitchHz;
    if (hz === undefined) return this.defaultVoice;
    return hz >= 160 ? 'slt' : 'kal16';
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
    opts.signal?.throwIfAborted();
    const voice = this.pickVoice(opts);
    const args = ['-psdur', '-voice', voice];
    const { pitchHz, rate } = opts.shape ?? {};
    if (pitchHz !== undefined && pitchHz > 40 && pitchHz < 500)
      args.push('--setf', `int_f0_target_mean=${pitchHz}`);
    if (rate !== undefined && rate > 0)
      args.push('--setf', `duration_stretch=${(1 / Math.min(3, Math.max(0.33, rate))).toFixed(3)}`);
    const spoken = sanitize(text);
    const tokens = wordTokens(spoken);
    const runProbe = (neededInMs?: number) =>
      tokens.length > 1
        ? runFlite(
            ['-psdur', '-voice', 'kal', ...args.slice(3)],
            tokens.map((t) => `${t.spoken}.`).join(' '),
            false,
            neededInMs,
          )
        : null;
    // Eager word timings: the probe does not depend on the audio run, so both start now (on
    // the worker pool they run side by side, which halves the wait).
    const probe = opts.lazyWords ? null : runProbe(opts.neededInMs);
    probe?.catch(() => {});
    const run = await runFlite(args, spoken, true, opts.neededInMs);
    opts.signal?.throwIfAborted();
    const wav = readWav(run.wav!);
    const samples = resample(wav.samples, wav.sampleRate, FLITE_SAMPLE_RATE);
    const phones = parsePhoneTrace(run.stdout);
    const durationMs = Math.round((samples.length / FLITE_SAMPLE_RATE) * 1000);
    const speech: Speech = { sampleRate: FLITE_SAMPLE_RATE, samples, durationMs, phones };
    if (!opts.lazyWords) return { ...speech, words: await this.words(tokens, phones, probe) };
    let timed: Promise<SpeechMark[]> | null = null;
    // The probe runs (once) only when asked: a barge-in is what needs it (docs/media.md), and
    // the turn's stored reply waits for it, so it is due now.
    speech.timeWords = () => (timed ??= this.words(tokens, phones, runProbe(0)).catch(() => []));
    return speech;
  }

  /** Word timings: a silent run of the tokens, each closed by a full stop, gives phones per word. */
  private async words(
    tokens: ReturnType<typeof wordTokens>,
    phones: SpeechMark[],
    probe: Promise<{ stdout: string }> | null,
  ): Promise<SpeechMark[]> {
    if (tokens.length === 0) return [];
    if (tokens.length === 1 || !probe) return wordMarks([tokens[0]!.spoken], phones, null);
    const words = tokens.map((t) => t.spoken);
    return wordMarks(
      words,
      phones,
      alignCounts(words, phoneGroups(parsePhoneTrace((await probe).stdout))),
    );
  }
}

/** Keep flite's input plain: no control characters; nothing speakable becomes a pause. */
function sanitize(text: string): string {
  const t = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return /[\p{L}\p{N}]/u.test(t) ? t : '.';
}
