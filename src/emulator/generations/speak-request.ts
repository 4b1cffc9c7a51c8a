/**
 * The speak body (spec 4.10) resolved to what the render needs: media come as `content`
 * parts or flat fields, and flat fields win when both are present. Missing text, face or
 * voice is 400 `missing_fields` (spec 7 "Speak"); a present field of the wrong type or out
 * of range is 400 `invalid_request` with the field in `detail`.
 */
import { SpeakBody, type SpeakRequest } from '../../contract/resources/generations.js';
import { ApiError } from '../../server/api-error.js';
import { requireFields } from './json-body.js';
import { own } from '../../contract/own.js';

export interface SpeakJob {
  text: string;
  workspaceId: string | undefined;
  /** http(s) URL or data: URI of the face. */
  image: string;
  /** Last-frame face (defaults to `image`). */
  endFrame: string | null;
  /** http(s) URL or data: URI of the voice reference (`input_audio` becomes a data: URI). */
  voiceRef: string;
  voiceText: string | null;
  immutableUrls: boolean;
  width: number;
  height: number;
  frameRate: number;
  /** Accepted and echoed in docs; no local effect (no diffusion model): docs/generations.md. */
  prompt: string | null;
  numStep: number;
  guidanceScale: number;
  firstFrameStrength: number;
  lastFrameStrength: number;
}

const AUDIO_FORMATS: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
};

function invalid(detail: string): ApiError {
  return new ApiError(400, 'invalid_request', { message: 'invalid speak request', detail });
}

/** First part of a type, from a `content` array that zod has already checked. */
function mediaFromContent(content: SpeakRequest['content']): { image?: string; voice?: string } {
  const out: { image?: string; voice?: string } = {};
  for (const [i, part] of (content ?? []).entries()) {
    if (part.type === 'image_url' && out.image === undefined) out.image = part.image_url.url;
    else if (part.type === 'audio_url' && out.voice === undefined) out.voice = part.audio_url.url;
    else if (part.type === 'input_audio' && out.voice === undefined) {
      const format = (part.input_audio.format ?? 'wav').toLowerCase();
      const mime = own(AUDIO_FORMATS, format);
      if (!mime)
        throw invalid(
          `content.${i}.input_audio.format: one of ${Object.keys(AUDIO_FORMATS).join(', ')}`,
        );
      out.voice = `data:${mime};base64,${part.input_audio.data}`;
    }
  }
  return out;
}

export function resolveSpeakRequest(body: Record<string, unknown>): SpeakJob {
  // The media sent as null are absent (missing_fields below, as for a null text), not mistyped.
  const media = {
    image: body.image ?? undefined,
    voice_ref: body.voice_ref ?? undefined,
    content: body.content ?? undefined,
  };
  // Shapes first (a `content` that is not a list of parts is not "missing" media).
  const parsed = SpeakBody.safeParse({
    ...body,
    ...media,
    text: typeof body.text === 'string' && body.text !== '' ? body.text : 'x',
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`${issue.path.join('.') || '(body)'}: ${issue.message}`);
  }
  const b = parsed.data;
  const fromContent = mediaFromContent(b.content);
  const image = b.image ?? fromContent.image;
  const voiceRef = b.voice_ref ?? fromContent.voice;
  requireFields(
    { text: body.text, image, voice_ref: voiceRef },
    ['text', 'image', 'voice_ref'],
    undefined,
  );
  if (typeof body.text !== 'string') throw invalid('text: expected a string');
  if (body.text.trim() === '') throw invalid('text: must contain words to say');
  const width = b.width ?? 352;
  const height = b.height ?? 480;
  // H.264 4:2:0 needs even sides; refusing beats silently answering another size.
  if (width % 2 !== 0) throw invalid('width: must be even (H.264 4:2:0)');
  if (height % 2 !== 0) throw invalid('height: must be even (H.264 4:2:0)');
  return {
    text: body.text,
    workspaceId: b.workspace_id,
    image: image!,
    endFrame: b.end_frame ?? null,
    voiceRef: voiceRef!,
    voiceText: b.voice_text ?? null,
    immutableUrls: b.immutable_url_for_caching ?? false,
    width,
    height,
    frameRate: b.frame_rate ?? 24,
    prompt: b.prompt ?? null,
    numStep: b.num_step ?? 16,
    guidanceScale: b.guidance_scale ?? 2.0,
    firstFrameStrength: b.first_frame_strength ?? 0.5,
    lastFrameStrength: b.last_frame_strength ?? 0.0,
  };
}
