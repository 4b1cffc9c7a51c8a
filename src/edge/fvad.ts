/**
 * WebRTC VAD (libfvad compiled to WASM, `@echogarden/fvad-wasm`) behind the Vad interface.
 * Interim home until src/models/vad lands (turns): a 100 ms mic frame is judged as ten
 * 10 ms frames (fvad takes 10/20/30 ms) and counts as speech when at least `minVoiced`
 * of them are voiced.
 */
import type { Vad } from '../models/index.js';

interface FvadModule {
  _fvad_new(): number;
  _fvad_set_mode(h: number, mode: number): number;
  _fvad_set_sample_rate(h: number, rate: number): number;
  _fvad_process(h: number, ptr: number, n: number): number;
  _fvad_reset(h: number): void;
  _malloc(n: number): number;
  HEAP16: Int16Array;
}

let loaded: Promise<FvadModule> | null = null;

export async function webrtcVadFactory(mode = 2, minVoiced = 3): Promise<() => Vad> {
  const pkg = '@echogarden/fvad-wasm'; // untyped package: imported by name
  loaded ??= (import(pkg) as Promise<unknown>).then((m) => (m as unknown as { default: () => Promise<FvadModule> }).default());
  const M = await loaded;
  const SUB = 160;
  return () => {
    const h = M._fvad_new();
    M._fvad_set_mode(h, mode);
    M._fvad_set_sample_rate(h, 16_000);
    const ptr = M._malloc(SUB * 2);
    return {
      isSpeech(frame: Int16Array): boolean {
        let voiced = 0;
        for (let o = 0; o + SUB <= frame.length; o += SUB) {
          M.HEAP16.set(frame.subarray(o, o + SUB), ptr >> 1);
          if (M._fvad_process(h, ptr, SUB) === 1) voiced++;
        }
        return voiced >= minVoiced;
      },
      reset() {
        M._fvad_reset(h);
      },
    };
  };
}
