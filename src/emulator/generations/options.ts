/**
 * Options of the generation routes (EmulatorOptions fields; `avatar emulator start` flags
 * in src/cli/emulator/emulator-flags.ts). Everything observable is configurable
 * (ARCHITECTURE property 2).
 */
export interface GenerationOptions {
  /** Concurrent speak renders per box (its "GPU cells"); a full fleet answers 429 at_capacity. */
  renderCells: number;
  /** Fetch speak media from any http(s) host, not only loopback (off by default; printed at start). */
  allowRemoteMedia: boolean;
  /** Bound on one media URL fetch (connect + body), ms. */
  mediaFetchTimeoutMs: number;
  /** `Retry-After` of 429 at_capacity, seconds (spec 8: speak takes about 2 to 5 s). */
  speakRetryAfterS: number;
  /** Bound on one box reachability probe of prebuild, ms. */
  prebuildProbeTimeoutMs: number;
  /** Bound on one speak render (speech + frames + encode), ms; past it the encoder is killed: 502 render_failed. */
  speakRenderTimeoutMs: number;
  /** Transcribe voice references sent without `voice_text` (in the background, cached per voice). */
  transcribeVoiceRefs: boolean;
}

export const generationDefaults: GenerationOptions = {
  renderCells: 2,
  allowRemoteMedia: false,
  mediaFetchTimeoutMs: 10_000,
  speakRetryAfterS: 3,
  prebuildProbeTimeoutMs: 2_000,
  transcribeVoiceRefs: true,
  speakRenderTimeoutMs: 120_000,
};

export function generationOptions(options: Record<string, unknown>): GenerationOptions {
  const out = { ...generationDefaults } as Record<string, unknown>;
  for (const key of Object.keys(generationDefaults))
    if (options[key] !== undefined) out[key] = options[key];
  return out as unknown as GenerationOptions;
}
