/**
 * Voice activity detection with WebRTC's VAD (libfvad compiled to WASM:
 * `@echogarden/fvad-wasm`, 56 KB, no model file). libfvad takes 10, 20 or 30 ms frames; the
 * edge's mic frames are 100 ms (spec 4.6), so each frame is split into 10 ms pieces and
 * called speech when at least `speechRatio` of them are.
 * Two guards of ours sit on top, because libfvad calls most steady noise speech
 * (MEDIA-NOTES): a 10 ms piece only counts when it is louder than `minRms` and its
 * zero-crossing rate is below `maxZeroCrossingRate` (hiss and white noise cross zero about
 * every other sample, voiced speech far less; a fricative alone may be missed, which the
 * utterance detector's hangover absorbs). A frame quiet throughout skips libfvad.
 * Cost: bench/turns.bench.js measures it (well under 0.1 ms per 100 ms frame).
 * Loading the WASM is asynchronous, so instances come from `createWebRtcVad()`; each holds
 * a libfvad state inside the shared module until `dispose()`.
 */
import fvad from '@echogarden/fvad-wasm';
import type { Vad } from '../vad.js';

export const VAD_SAMPLE_RATE = 16_000;
/** Samples per 10 ms piece handed to libfvad. */
const PIECE = VAD_SAMPLE_RATE / 100;

export interface WebRtcVadOptions {
  /**
   * libfvad aggressiveness, 0 (quality: calls more things speech) to 3 (very aggressive:
   * fewer false alarms on noise, may clip soft onsets). Default 2: with the noise guards
   * below, 3 only made onsets 100 ms later on test speech.
   */
  mode?: 0 | 1 | 2 | 3;
  /** Share of 10 ms pieces that must be speech for a frame to count (default 0.3). */
  speechRatio?: number;
  /** Pieces quieter than this RMS (of 32767) are silence (default 50, about -56 dBFS). */
  minRms?: number;
  /** Pieces crossing zero more often than this share of samples are noise (default 0.4). */
  maxZeroCrossingRate?: number;
}

interface FvadModule {
  _fvad_new(): number;
  _fvad_free(h: number): void;
  _fvad_reset(h: number): void;
  _fvad_set_mode(h: number, mode: number): number;
  _fvad_set_sample_rate(h: number, rate: number): number;
  _fvad_process(h: number, ptr: number, len: number): number;
  _malloc(n: number): number;
  _free(p: number): void;
  HEAP16: Int16Array;
}

let modulePromise: Promise<FvadModule> | null = null;
const loadModule = () => (modulePromise ??= (fvad as unknown as () => Promise<FvadModule>)());

/** Frees libfvad state of instances that were dropped without dispose(). */
const finalizer = new FinalizationRegistry<{ m: FvadModule; h: number; p: number }>(
  ({ m, h, p }) => {
    m._fvad_free(h);
    m._free(p);
  },
);

export class WebRtcVad implements Vad {
  private handle: number;
  private readonly buffer: number;
  private readonly ratio: number;
  private readonly minSquare: number;
  private readonly maxCrossings: number;
  private readonly token = {};

  /** Use createWebRtcVad(); the module must already be loaded. */
  constructor(
    private readonly m: FvadModule,
    opts: WebRtcVadOptions = {},
  ) {
    this.handle = m._fvad_new();
    if (!this.handle) throw new Error('libfvad could not allocate a VAD instance');
    const mode = opts.mode ?? 2;
    if (m._fvad_set_mode(this.handle, mode) !== 0)
      throw new RangeError(`VAD mode must be 0..3, got ${mode}`);
    m._fvad_set_sample_rate(this.handle, VAD_SAMPLE_RATE);
    this.buffer = m._malloc(PIECE * 2);
    this.ratio = opts.speechRatio ?? 0.3;
    this.minSquare = (opts.minRms ?? 50) ** 2 * PIECE;
    this.maxCrossings = (opts.maxZeroCrossingRate ?? 0.4) * PIECE;
    finalizer.register(this, { m, h: this.handle, p: this.buffer }, this.token);
  }

  isSpeech(frame: Int16Array): boolean {
    return this.speechPieces(frame) >= Math.max(1, Math.ceil(this.ratio * (frame.length / PIECE)));
  }

  /** How many 10 ms pieces of `frame` hold speech (the detail behind isSpeech). */
  speechPieces(frame: Int16Array): number {
    if (!this.handle) throw new Error('this VAD was disposed');
    if (frame.length === 0 || frame.length % PIECE !== 0) {
      throw new RangeError(
        `a VAD frame must be a multiple of 10 ms (${PIECE} samples at 16 kHz), got ${frame.length} samples`,
      );
    }
    const pieces = frame.length / PIECE;
    const energy = new Float64Array(pieces);
    const crossings = new Uint16Array(pieces);
    let loud = false;
    for (let p = 0; p < pieces; p++) {
      const base = p * PIECE;
      let e = 0;
      let z = 0;
      for (let i = base; i < base + PIECE; i++) {
        e += frame[i] * frame[i];
        if (i > base && frame[i] >= 0 !== frame[i - 1] >= 0) z++;
      }
      energy[p] = e;
      crossings[p] = z;
      if (e >= this.minSquare) loud = true;
    }
    // A frame quiet throughout (a muted or zeroed mic, spec 4.6) cannot hold speech: skip
    // libfvad, so a listening session costs next to nothing.
    if (!loud) return 0;
    let speech = 0;
    for (let p = 0; p < pieces; p++) {
      // libfvad sees every piece of a frame it judges, so its noise estimate keeps adapting.
      // HEAP16 is re-read each time: the WASM memory may have grown and replaced it.
      this.m.HEAP16.set(frame.subarray(p * PIECE, (p + 1) * PIECE), this.buffer >> 1);
      const r = this.m._fvad_process(this.handle, this.buffer, PIECE);
      if (r < 0) throw new Error('libfvad rejected the frame');
      if (r === 1 && energy[p] >= this.minSquare && crossings[p] <= this.maxCrossings) speech++;
    }
    return speech;
  }

  reset(): void {
    if (this.handle) this.m._fvad_reset(this.handle);
  }

  /** Frees the libfvad state (also done by the garbage collector when forgotten). */
  dispose(): void {
    if (!this.handle) return;
    finalizer.unregister(this.token);
    this.m._fvad_free(this.handle);
    this.m._free(this.buffer);
    this.handle = 0;
  }
}

/** A WebRTC VAD for 16 kHz mono PCM16 (loads the 56 KB WASM once per process). */
export async function createWebRtcVad(opts: WebRtcVadOptions = {}): Promise<WebRtcVad> {
  return new WebRtcVad(await loadModule(), opts);
}
