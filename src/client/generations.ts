/**
 * One-shot generations (spec 4.10) for app developers: speak answers raw MP4 bytes with
 * timing headers, design answers base64 WAV; these helpers return the bytes and the
 * figures decoded. Errors are thrown as ApiResponseError like every client call.
 */
import {
  design as designOp,
  prebuild as prebuildOp,
  speak as speakOp,
} from '../contract/operations/generations.js';
import type { DesignRequest, SpeakRequest } from '../contract/resources/generations.js';
import { ApiResponseError, type AvatarClient } from './client.js';

export interface SpeakTimings {
  /** X-Clone-Ms: voice preparation. */
  cloneMs: number | null;
  /** X-Gen-Ms: speech + video generation. */
  genMs: number | null;
  /** X-Total-Ms: the whole request on the service. */
  totalMs: number | null;
  /** X-Duration: seconds of video. */
  durationS: number | null;
  /** X-Box-Id. */
  boxId: string | null;
}

export interface SpeakAnswer {
  video: Buffer;
  contentType: string;
  timings: SpeakTimings;
}

const num = (v: string | undefined) =>
  v === undefined || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);

export function speakTimings(headers: Record<string, string>): SpeakTimings {
  return {
    cloneMs: num(headers['x-clone-ms']),
    genMs: num(headers['x-gen-ms']),
    totalMs: num(headers['x-total-ms']),
    durationS: num(headers['x-duration']),
    boxId: headers['x-box-id'] ?? null,
  };
}

/**
 * POST /api/v1/speak. `onUploadProgress` reports request bytes handed to the socket (the
 * body carries the media as data URIs, so it can be megabytes).
 */
export async function speak(
  client: AvatarClient,
  body: SpeakRequest,
  opts: { onUploadProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<SpeakAnswer> {
  const bytes = Buffer.from(JSON.stringify(body));
  const res = await client.send(speakOp, {
    raw: { bytes, contentType: 'application/json', onProgress: opts.onUploadProgress },
    signal: opts.signal,
  });
  if (res.status >= 400) throw new ApiResponseError(res.status, res.body, res.headers);
  if (!Buffer.isBuffer(res.body))
    throw new ApiResponseError(
      502,
      { error: 'render_failed', message: 'speak answered no video' },
      res.headers,
    );
  return {
    video: res.body,
    contentType: res.headers['content-type'] ?? 'video/mp4',
    timings: speakTimings(res.headers),
  };
}

export interface DesignAnswer {
  /** The WAV file (24 kHz mono PCM16). */
  wav: Buffer;
  sampleRate: number;
  durationSeconds: number;
  genMs: number;
  rtf: number | null;
}

/** POST /api/v1/design, the audio decoded from base64. */
export async function design(
  client: AvatarClient,
  body: DesignRequest,
  opts: { signal?: AbortSignal } = {},
): Promise<DesignAnswer> {
  const res = await client.call(designOp, { body, signal: opts.signal });
  const b = res.body as {
    audio_base64: string;
    sample_rate: number;
    duration_seconds: number;
    gen_ms: number;
    rtf: number | null;
  };
  return {
    wav: Buffer.from(b.audio_base64, 'base64'),
    sampleRate: b.sample_rate,
    durationSeconds: b.duration_seconds,
    genMs: b.gen_ms,
    rtf: b.rtf,
  };
}

export interface PrebuildAnswer {
  ok: boolean;
  avatar_ref: string;
  boxes: { box_id: string; status: string }[];
}

/** POST /api/v1/prebuild (202). */
export async function prebuild(client: AvatarClient, versionId: string): Promise<PrebuildAnswer> {
  return (await client.call(prebuildOp, { body: { avatar_ref: versionId } }))
    .body as PrebuildAnswer;
}
