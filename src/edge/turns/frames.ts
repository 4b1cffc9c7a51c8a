/** Mic frames are 100 ms (spec 4.6: 1600 samples at 16 kHz). */
export const FRAME_MS = 100;
export const FRAME_SAMPLES = 1600;
