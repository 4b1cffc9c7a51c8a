/**
 * Upload checks of spec 4.7 / 8: face images are jpeg, png or webp *by content* (magic
 * bytes, not the header alone), at most 10 MB; voice samples are mpeg or wav, at most
 * 25 MB, with 5 to 30 s of audio measured from the file itself. Sizes are enforced by the
 * router's body limit (413). Codes the spec leaves open are ours (docs/fidelity.md).
 */
import { fileTypeFromBuffer } from 'file-type';
import { parseBuffer } from 'music-metadata';
import { charCount, Limits } from '../../contract/limits.js';
import { FACE_TYPES, VOICE_TYPES } from '../../contract/operations/avatars.js';
import { ApiError } from '../../server/api-error.js';
import { decodePhoto } from '../../media/photo.js';

const declaredType = (header: string | undefined) =>
  (header ?? '').split(';')[0]!.trim().toLowerCase();

function requireBody(bytes: Uint8Array): void {
  if (bytes.length === 0)
    throw new ApiError(400, 'invalid_request', { message: 'empty upload', detail: 'body: empty' });
}

function unsupported(message: string, detail: string): ApiError {
  return new ApiError(415, 'unsupported_media_type', { message, detail });
}

/** A face image: returns the content type detected from its bytes. */
export async function checkFaceImage(
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<string> {
  const declared = declaredType(contentType);
  if (!(FACE_TYPES as readonly string[]).includes(declared)) {
    throw unsupported(
      `Content-Type must be one of ${FACE_TYPES.join(', ')}`,
      `content_type:${declared || 'missing'}`,
    );
  }
  requireBody(bytes);
  const found = await fileTypeFromBuffer(bytes);
  if (!found || !(FACE_TYPES as readonly string[]).includes(found.mime)) {
    throw unsupported(
      'the bytes are not a jpeg, png or webp image',
      `content:${found?.mime ?? 'unknown'}`,
    );
  }
  await requireDecodable(bytes);
  return found.mime;
}

/**
 * Magic bytes say what an image claims to be; only decoding says it is one. A face is
 * decoded once with the renderer's own decoder (the one the idle-media builder and the
 * edge use), so a truncated or corrupt file is refused here (400 `invalid_image`, detail
 * `unreadable`) instead of publishing a version nothing can render.
 */
async function requireDecodable(bytes: Uint8Array): Promise<void> {
  try {
    await decodePhoto(bytes);
  } catch (e) {
    // A system error (ffmpeg missing, not executable) is ours, not the caller's: a 500.
    if (typeof (e as NodeJS.ErrnoException).code === 'string') throw e;
    throw new ApiError(400, 'invalid_image', {
      message: 'the image cannot be decoded (truncated or corrupt)',
      detail: 'unreadable',
    });
  }
}

export interface CheckedAudio {
  /** `audio/mpeg` or `audio/wav`, from the bytes. */
  mime: string;
  seconds: number;
}

/** A voice sample: type by content, duration measured from the file (WAV header, MPEG frames). */
export async function checkVoiceSample(
  bytes: Uint8Array,
  contentType: string | undefined,
): Promise<CheckedAudio> {
  const declared = declaredType(contentType);
  if (!(VOICE_TYPES as readonly string[]).includes(declared)) {
    throw unsupported(
      `Content-Type must be audio/mpeg or audio/wav`,
      `content_type:${declared || 'missing'}`,
    );
  }
  requireBody(bytes);
  const found = await fileTypeFromBuffer(bytes);
  const mime =
    found?.mime === 'audio/mpeg'
      ? 'audio/mpeg'
      : found && /^audio\/(x-)?wav(e)?$|vnd\.wave/.test(found.mime)
        ? 'audio/wav'
        : null;
  if (!mime)
    throw unsupported('the bytes are not mpeg or wav audio', `content:${found?.mime ?? 'unknown'}`);
  let seconds: number | undefined;
  try {
    const meta = await parseBuffer(
      bytes,
      { mimeType: mime, size: bytes.length },
      { duration: true, skipCovers: true },
    );
    seconds = meta.format.duration;
  } catch {
    seconds = undefined;
  }
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
    throw new ApiError(400, 'invalid_voice_sample', {
      message: 'cannot measure the audio length',
      detail: 'unreadable',
    });
  }
  const rounded = Math.round(seconds * 100) / 100;
  if (seconds < Limits.voiceSampleMinSeconds || seconds > Limits.voiceSampleMaxSeconds) {
    const detail = seconds < Limits.voiceSampleMinSeconds ? 'too_short' : 'too_long';
    throw new ApiError(400, 'invalid_voice_sample', {
      message: `voice sample is ${rounded} s; it must be ${Limits.voiceSampleMinSeconds} to ${Limits.voiceSampleMaxSeconds} s`,
      detail,
      extra: { duration_seconds: rounded },
    });
  }
  return { mime, seconds: rounded };
}

/** Same bound as the `voice_ref_text` body field of a version. */
export const REF_TEXT_MAX_CHARS = 4_096;

/**
 * `X-Ref-Text` (spec 4.7): header values are Latin-1, so a percent-encoded value is
 * decoded. Longer than `voice_ref_text` may be: 400 `invalid_request`.
 */
export function refTextHeader(value: string | undefined): string | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (v === '') return null;
  let text = v;
  try {
    text = /%[0-9a-f]{2}/i.test(v) ? decodeURIComponent(v) : v;
  } catch {
    text = v;
  }
  if (charCount(text) > REF_TEXT_MAX_CHARS) {
    throw new ApiError(400, 'invalid_request', {
      message: `X-Ref-Text is over ${REF_TEXT_MAX_CHARS} characters`,
      detail: `X-Ref-Text: at most ${REF_TEXT_MAX_CHARS} characters`,
    });
  }
  return text;
}
