/**
 * Per-emulator state of the generation routes: render cells over the session runtime's
 * fleet, the immutable-URL media cache, per-voice caches (measured shape, transcript) and
 * the operator's fault switch (`POST /_emulator/generations/faults`).
 */
import type { EmulatorContext } from '../context.js';
import { sessionRuntime } from '../sessions/runtime.js';
import type { Recognition } from '../../models/recognizer.js';
import type { VoiceShape } from '../../models/voice.js';
import { MediaCache } from './media-source.js';
import { generationOptions, type GenerationOptions } from './options.js';
import { RenderCells } from './render-cells.js';

export interface VoiceAnalysis {
  shape: VoiceShape;
  /** Seconds of reference audio measured. */
  seconds: number;
}

/** A bounded map (oldest out first) for the per-voice caches. */
export class BoundedMap<V> extends Map<string, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    while (this.size > this.max) this.delete(this.keys().next().value as string);
    return this;
  }
}

export interface GenerationState {
  opts: GenerationOptions;
  cells: RenderCells;
  media: MediaCache;
  /** sha256 of the reference audio -> measured voice shape ("clone"). */
  voices: BoundedMap<VoiceAnalysis>;
  /** sha256 of the reference audio -> automatic transcript (spec: "omit to auto-transcribe and cache"). */
  transcripts: BoundedMap<Recognition | null>;
  /** Operator fault: the next renders fail at this stage (tests of 502 render_failed). */
  fault: { stage: 'tts' | 'video'; remaining: number } | null;
}

const states = new WeakMap<EmulatorContext, GenerationState>();

export function generationState(ctx: EmulatorContext): GenerationState {
  let s = states.get(ctx);
  if (!s) {
    const opts = generationOptions(ctx.options);
    const rt = sessionRuntime(ctx);
    s = {
      opts,
      cells: new RenderCells(rt.fleet, opts.renderCells, opts.speakRetryAfterS),
      media: new MediaCache(),
      voices: new BoundedMap(256),
      transcripts: new BoundedMap(256),
      fault: null,
    };
    states.set(ctx, s);
  }
  return s;
}

/** Throws when the operator armed a fault for this stage (counts down). */
export function checkFault(s: GenerationState, stage: 'tts' | 'video'): void {
  if (!s.fault || s.fault.stage !== stage || s.fault.remaining <= 0) return;
  s.fault.remaining--;
  if (s.fault.remaining === 0) s.fault = null;
  throw new Error(`injected ${stage} fault`);
}
