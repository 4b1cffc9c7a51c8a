/**
 * POST /api/v1/design (spec 4.10): the description becomes a TTS voice (design-voice.ts),
 * which says the text; the answer is 24 kHz mono PCM16 WAV as base64. The sampling knobs
 * of a generative voice model (`temperature`, `top_p`, `top_k`, `repetition_penalty`) are
 * checked for range and have no audible effect: the local synthesizer is deterministic and
 * samples nothing. `max_new_tokens` bounds the audio: one token is
 * `GenerationLimits.designMsPerToken` ms (a 50 Hz speech codec), so the WAV is cut there.
 * Runs in the control plane's process: TTS needs no render cell (docs/generations.md).
 */
import { DesignBody, GenerationLimits as L } from '../../contract/resources/generations.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { designVoice } from './design-voice.js';
import { parseJsonObject, requireFields } from './json-body.js';
import { requireWords, speakVoice, toWav24k } from './speech-parts.js';
import type { Speech } from '../../models/voice.js';
import { checkFault, generationState } from './state.js';

export const DESIGN_SAMPLE_RATE = 24_000;

export async function runDesign(ctx: EmulatorContext, raw: Uint8Array) {
  const t0 = ctx.clock.now();
  const body = parseJsonObject(raw);
  requireFields(body, ['description', 'text']);
  const parsed = DesignBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError(400, 'invalid_request', {
      message: 'invalid design request',
      detail: `${issue.path.join('.') || '(body)'}: ${issue.message}`,
    });
  }
  const req = parsed.data;
  // Blank is not missing (a present string), but there is nothing to say or design from (as speak's text).
  for (const field of ['text', 'description'] as const) {
    if (req[field].trim() === '')
      throw new ApiError(400, 'invalid_request', {
        message: 'invalid design request',
        detail: `${field}: must contain words`,
      });
  }
  const { shape } = designVoice(req.description);
  let speech: Speech;
  try {
    checkFault(generationState(ctx), 'tts');
    speech = await speakVoice().synthesize(req.text, { shape });
  } catch (e) {
    throw new ApiError(502, 'render_failed', {
      message: `speech synthesis failed: ${(e as Error).message}`,
      retryable: true,
    });
  }
  requireWords(speech);
  const maxSamples = Math.floor(
    ((req.max_new_tokens ?? 4096) * L.designMsPerToken * speech.sampleRate) / 1000,
  );
  const wav = toWav24k(speech.samples.subarray(0, maxSamples), speech.sampleRate);
  const genMs = ctx.clock.now() - t0;
  return {
    audio_base64: wav.wav.toString('base64'),
    sample_rate: DESIGN_SAMPLE_RATE,
    duration_seconds: Math.round(wav.seconds * 1000) / 1000,
    gen_ms: genMs,
    rtf: wav.seconds > 0 ? Math.round((genMs / 1000 / wav.seconds) * 10_000) / 10_000 : null,
    format: 'wav' as const,
  };
}
