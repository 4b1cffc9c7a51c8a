/**
 * POST /api/v1/speak (spec 4.10; errors spec 7 "Speak"). Synchronous: the voice reference
 * is measured ("clone": its median pitch and pace shape the TTS voice, cached per voice),
 * the text is synthesized, the face photo is animated with the speech's mouth track and
 * the frames and speech are encoded into one MP4 whose duration follows the speech.
 *
 * Where it runs: in the control plane's process, on a render cell of a live box picked
 * from the fleet (`X-Box-Id`). The edge's boundary (its own HTTP API, owned by src/edge)
 * stays untouched, and the renderer, TTS and encoder are the very modules the edge uses
 * (src/media, src/models/voice). docs/generations.md says why.
 */
import { createHash } from 'node:crypto';
import { GenerationLimits as L } from '../../contract/resources/generations.js';
import { decodeAudio } from '../../media/audio.js';
import { faceFromPhoto } from '../../media/face-source.js';
import { renderSpeechClip } from '../../media/speech-clip.js';
import type { Speech } from '../../models/voice.js';
import type { AuthContext } from '../auth/authenticate.js';
import { workspaceForKey } from '../auth/workspace.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { parseJsonObject } from './json-body.js';
import { loadMedia, type MediaFetchOptions } from './media-source.js';
import { requireWords, speakVoice, voiceShapeOf } from './speech-parts.js';
import { resolveSpeakRequest, type SpeakJob } from './speak-request.js';
import { checkFault, generationState, type GenerationState, type VoiceAnalysis } from './state.js';

/** Longest stretch of the reference that is decoded and measured (spec: 3 to 10 s is ideal). */
const REFERENCE_SECONDS = 30;
/** The Voice's and the recognizer's rate: the reference is measured and transcribed at 16 kHz. */
const REFERENCE_RATE = 16_000;

const renderFailed = (why: string) =>
  new ApiError(502, 'render_failed', { message: `render failed: ${why}`, retryable: true });

const badMedia = (field: string, what: string) =>
  new ApiError(400, 'invalid_request', {
    message: `cannot use ${field}`,
    detail: `${field}: not a decodable ${what}`,
  });

/** A failure of our own tools (ffmpeg missing, not executable) is a render failure, not the caller's media. */
const isSystemError = (e: unknown) => typeof (e as NodeJS.ErrnoException).code === 'string';

export interface SpeakResult {
  mp4: Buffer;
  headers: Record<string, string>;
}

async function analyseVoice(
  s: GenerationState,
  job: SpeakJob,
  fetch: MediaFetchOptions,
  signal: AbortSignal,
): Promise<{ analysis: VoiceAnalysis; key: string }> {
  const ref = await loadMedia('voice_ref', job.voiceRef, L.voiceRefBytes, {
    ...fetch,
    cache: job.immutableUrls ? s.media : null,
  });
  const key = createHash('sha256').update(ref.bytes).digest('hex');
  // A transcript sent with the voice is kept for it (later requests may omit it).
  if (job.voiceText)
    s.transcripts.set(key, { source: 'provided', text: job.voiceText, recognised: true });
  const hit = s.voices.get(key);
  if (hit) return { analysis: hit, key };
  let samples: Int16Array;
  try {
    samples = await decodeAudio(ref.bytes, REFERENCE_RATE, {
      maxSeconds: REFERENCE_SECONDS,
      signal,
    });
    if (samples.length === 0) throw new Error('no audio');
  } catch (e) {
    if (isSystemError(e)) throw renderFailed((e as Error).message);
    throw badMedia('voice_ref', 'audio file (wav, mp3, m4a, flac, ogg)');
  }
  const analysis: VoiceAnalysis = {
    shape: voiceShapeOf(samples, REFERENCE_RATE),
    seconds: samples.length / REFERENCE_RATE,
  };
  // Nothing voiced (silence, a click): there is no voice to clone, and the pace measured
  // from no syllables is the slowest there is. The caller's media: 400, as undecodable audio.
  if (analysis.shape.pitchHz == null) {
    const detail = 'voice_ref: no speech found in the reference (3 to 10 s of speech is ideal)';
    throw new ApiError(400, 'invalid_request', { message: 'cannot use voice_ref', detail });
  }
  s.voices.set(key, analysis);
  // The local TTS needs no transcript, so the render does not wait for recognition.
  if (!job.voiceText) s.transcribeInBackground(key, samples);
  return { analysis, key };
}

async function loadFace(
  s: GenerationState,
  job: SpeakJob,
  field: 'image' | 'end_frame',
  ref: string,
  fetch: MediaFetchOptions,
  signal: AbortSignal,
) {
  const media = await loadMedia(field, ref, L.imageBytes, {
    ...fetch,
    cache: job.immutableUrls ? s.media : null,
  });
  try {
    return await faceFromPhoto(media.bytes, job.width, job.height, { signal });
  } catch (e) {
    if (isSystemError(e)) throw renderFailed((e as Error).message);
    throw badMedia(field, 'image (jpg, png, webp)');
  }
}

export async function runSpeak(
  ctx: EmulatorContext,
  auth: AuthContext,
  raw: Uint8Array,
): Promise<SpeakResult> {
  const t0 = ctx.clock.now();
  const job = resolveSpeakRequest(parseJsonObject(raw));
  try {
    workspaceForKey(ctx.db, auth, job.workspaceId ?? null);
  } catch (e) {
    // spec 7 "Speak": a workspace the key is not a member of is 403 forbidden, whether or not it exists.
    if (e instanceof ApiError && e.status === 404)
      throw new ApiError(403, 'forbidden', { message: 'key is not a member of this workspace' });
    throw e;
  }
  const s = generationState(ctx);
  const cell = s.cells.acquire();
  // Nothing stuck may hold the cell forever (a stuck encoder, a decompression-bomb face):
  // one bound over the whole render, decoding included, on the injected clock.
  const abort = new AbortController();
  const timer = ctx.clock.setTimeout(() => abort.abort(), s.opts.speakRenderTimeoutMs);
  const { signal } = abort;
  try {
    const fetch: MediaFetchOptions = {
      allowRemote: s.opts.allowRemoteMedia,
      timeoutMs: s.opts.mediaFetchTimeoutMs,
      clock: ctx.clock,
    };
    const { analysis } = await analyseVoice(s, job, fetch, signal);
    const tClone = ctx.clock.now();
    // The faces decode (ffmpeg) while the voice speaks (WASI): neither waits for the other.
    const synth = (async (): Promise<Speech> => {
      checkFault(s, 'tts');
      return speakVoice().synthesize(job.text, { shape: analysis.shape, signal });
    })().catch((e: Error) => {
      throw renderFailed(`speech synthesis: ${e.message}`);
    });
    synth.catch(() => {}); // observed below; never an unhandled rejection while the faces load
    const face = await loadFace(s, job, 'image', job.image, fetch, signal);
    const end =
      job.endFrame && job.endFrame !== job.image
        ? await loadFace(s, job, 'end_frame', job.endFrame, fetch, signal)
        : null;
    const speech = await synth;
    requireWords(speech);
    let mp4: Buffer;
    try {
      checkFault(s, 'video');
      mp4 = await renderSpeechClip({
        face,
        endFace: end ?? undefined,
        speech,
        width: job.width,
        height: job.height,
        fps: job.frameRate,
        signal,
      });
    } catch (e) {
      throw renderFailed(`video: ${(e as Error).message}`);
    }
    // The clip has as many frames as cover the speech (src/media/speech-clip.ts).
    const videoSeconds =
      Math.max(1, Math.ceil((speech.samples.length / speech.sampleRate) * job.frameRate)) /
      job.frameRate;
    const tEnd = ctx.clock.now();
    return {
      mp4,
      headers: {
        'Content-Type': 'video/mp4',
        'X-Clone-Ms': String(tClone - t0),
        'X-Gen-Ms': String(tEnd - tClone),
        'X-Total-Ms': String(tEnd - t0),
        'X-Duration': videoSeconds.toFixed(3),
        'X-Box-Id': cell.boxId,
      },
    };
  } catch (e) {
    if (signal.aborted) throw renderFailed(`timed out after ${s.opts.speakRenderTimeoutMs} ms`);
    throw e;
  } finally {
    timer.cancel();
    cell.release();
  }
}
