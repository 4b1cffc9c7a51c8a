/**
 * Voice activity detection over 16 kHz mono PCM16 (spec 4.6 mic frames are 1600 samples).
 * The default is WebRTC VAD compiled to WASM (src/models/vad/).
 */
export interface Vad {
  /** true when the frame (any multiple of 10 ms) holds speech. */
  isSpeech(frame: Int16Array): boolean;
  reset(): void;
  /** Frees what the instance holds (WASM state); optional, a session calls it when it ends. */
  dispose?(): void;
}
