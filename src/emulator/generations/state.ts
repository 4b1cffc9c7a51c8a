/**
 * Per-emulator state of the generation routes: render cells over the session runtime's
 * fleet, the immutable-URL media cache, per-voice caches (measured shape, transcript) and
 * the operator's fault switch (`POST /_emulator/generations/faults`).
 */
import { LRUCache } from 'lru-cache';
import type { EmulatorContext } from '../context.js';
import type { SessionRuntime } from '../sessions/runtime.js';
import type { Recognition, Recognizer } from '../../models/recognizer.js';
import { createRecognizer } from '../../models/recognizer/index.js';
import type { VoiceShape } from '../../models/voice.js';
import { MediaCache } from './media-source.js';
import { generationOptions, type GenerationOptions } from './options.js';
import { RenderCells } from './render-cells.js';

export interface VoiceAnalysis {
  shape: VoiceShape;
  /** Seconds of reference audio measured. */
  seconds: number;
}

/** A voice reference's transcript: sent as `voice_text`, or recognised in the background. */
export interface VoiceTranscript {
  source: 'provided' | 'recognized';
  /** null while recognition runs. */
  text: string | null;
  /** false when nothing on the machine could recognise speech (text then says what to install). */
  recognised: boolean | null;
}

export interface GenerationState {
  opts: GenerationOptions;
  cells: RenderCells;
  media: MediaCache;
  /** sha256 of the reference audio -> measured voice shape ("clone"). */
  voices: LRUCache<string, VoiceAnalysis>;
  /** sha256 of the reference audio -> its transcript (spec: "omit to auto-transcribe and cache"). */
  transcripts: LRUCache<string, VoiceTranscript>;
  /** The recognizer (src/models/recognizer: --asr-url, else pocketsphinx, else the honest fallback). */
  recognizer(): Recognizer;
  /** Start recognising a reference in the background (the render never waits for it). */
  transcribeInBackground(key: string, samples: Int16Array): void;
  /** Resolves when no recognition is running (tests, stop). */
  transcribing(): Promise<void>;
  /** Operator fault: the next renders fail at this stage (tests of 502 render_failed). */
  fault: { stage: 'tts' | 'video'; remaining: number } | null;
}

/** The emulator's generation state (built once by src/emulator/services.ts). */
export function generationState(ctx: EmulatorContext): GenerationState {
  return ctx.services.generations;
}

/** The generation state over the session runtime's fleet; its transcriptions end with the emulator. */
export function createGenerationState(ctx: EmulatorContext, rt: SessionRuntime): GenerationState {
  const opts = generationOptions(ctx.options);
  let recognizer: Recognizer | null = null;
  const running = new Set<Promise<void>>();
  const transcripts = new LRUCache<string, VoiceTranscript>({ max: 256 });
  let stopped = false;
  const state: GenerationState = {
    opts,
    cells: new RenderCells(rt.fleet, opts.renderCells, opts.speakRetryAfterS),
    media: new MediaCache(),
    voices: new LRUCache<string, VoiceAnalysis>({ max: 256 }),
    transcripts,
    fault: null,
    recognizer: () =>
      (recognizer ??= createRecognizer({
        asrUrl: typeof ctx.options.asrUrl === 'string' ? ctx.options.asrUrl : undefined,
        asrModel: typeof ctx.options.asrModel === 'string' ? ctx.options.asrModel : undefined,
      })),
    transcribeInBackground(key, samples) {
      if (stopped || !opts.transcribeVoiceRefs || transcripts.has(key)) return;
      const entry: VoiceTranscript = { source: 'recognized', text: null, recognised: null };
      transcripts.set(key, entry);
      // Whole milliseconds only: pocketsphinx.ts derives a child-process timeout from the
      // audio length and Node refuses a fractional one. 16 samples = 1 ms at 16 kHz.
      const whole = samples.subarray(0, samples.length - (samples.length % 16));
      const job = state
        .recognizer()
        .transcribe(whole)
        .then(
          (r: Recognition) => {
            entry.text = r.text;
            entry.recognised = r.recognised;
          },
          (e: Error) => {
            entry.text = `[not recognised: ${e.message}]`;
            entry.recognised = false;
          },
        )
        .finally(() => running.delete(job));
      running.add(job);
    },
    transcribing: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
  ctx.onStop(async () => {
    stopped = true;
    await state.transcribing();
  });
  return state;
}

/** Throws when the operator armed a fault for this stage (counts down). */
export function checkFault(s: GenerationState, stage: 'tts' | 'video'): void {
  if (!s.fault || s.fault.stage !== stage || s.fault.remaining <= 0) return;
  s.fault.remaining--;
  if (s.fault.remaining === 0) s.fault = null;
  throw new Error(`injected ${stage} fault`);
}
