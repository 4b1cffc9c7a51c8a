/**
 * One-shot generations (spec 4.10): speak, design and prebuild bodies and answers.
 * Limits the spec leaves "not shown" (text sizes, media sizes) are ours: docs/fidelity.md
 * `## Generations (issue 10)`.
 */
import { z } from 'zod';
import { named } from '../registry.js';
import { textOfAtMost } from './common.js';

/** Ours (spec 8: "size limits on speak and design text: not shown"). */
export const GenerationLimits = {
  speakTextChars: 4_096,
  designTextChars: 4_096,
  designDescriptionChars: 1_024,
  voiceTextChars: 4_096,
  /** Decoded image bytes (the face upload limit, spec 8). */
  imageBytes: 10 * 1024 * 1024,
  /** Decoded voice reference bytes (the voice sample limit, spec 8). */
  voiceRefBytes: 25 * 1024 * 1024,
  /** JSON body of speak: both media as base64 (4/3 of their bytes) plus room. */
  speakBodyBytes: 64 * 1024 * 1024,
  minSide: 64,
  maxSide: 1920,
  minFrameRate: 1,
  maxFrameRate: 60,
  maxNumStep: 1_000,
  maxNewTokens: 16_384,
  /** Audio of one design token (a 50 Hz speech codec): max_new_tokens caps the duration. */
  designMsPerToken: 20,
} as const;

const L = GenerationLimits;

const ContentPart = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string(), detail: z.string().optional() }),
  }),
  z.object({ type: z.literal('audio_url'), audio_url: z.object({ url: z.string() }) }),
  z.object({
    type: z.literal('input_audio'),
    input_audio: z.object({ data: z.string().describe('base64'), format: z.string().optional() }),
  }),
]);

/** POST /api/v1/speak (spec 4.10). The route checks it by hand so a missing field is `missing_fields`. */
export const SpeakBody = named(
  'SpeakRequest',
  z.object({
    text: textOfAtMost(L.speakTextChars, 1).describe(
      `words to say (at most ${L.speakTextChars} characters)`,
    ),
    workspace_id: z.string().optional().describe('required when the key is not workspace-bound'),
    content: z
      .array(ContentPart)
      .optional()
      .describe('media parts; flat image/voice_ref win over them'),
    image: z.string().optional().describe('face: http(s) URL or data:image/...;base64, URI'),
    voice_ref: z.string().optional().describe('voice to clone (3 to 10 s ideal): URL or data URI'),
    voice_text: textOfAtMost(L.voiceTextChars)
      .optional()
      .describe('transcript of voice_ref; omit to auto-transcribe (cached per voice)'),
    immutable_url_for_caching: z
      .boolean()
      .optional()
      .describe('treat media URLs as immutable cache keys (default false)'),
    end_frame: z.string().optional().describe('last-frame face; defaults to image'),
    prompt: textOfAtMost(L.speakTextChars)
      .optional()
      .describe('scene/style prompt (no local effect: docs/generations.md)'),
    num_step: z.number().int().min(1).max(L.maxNumStep).optional().describe('default 16'),
    guidance_scale: z.number().min(0).max(20).optional().describe('default 2.0'),
    first_frame_strength: z.number().min(0).max(1).optional().describe('default 0.5'),
    last_frame_strength: z.number().min(0).max(1).optional().describe('default 0.0'),
    width: z
      .number()
      .int()
      .min(L.minSide)
      .max(L.maxSide)
      .optional()
      .describe('px, default 352 (even)'),
    height: z
      .number()
      .int()
      .min(L.minSide)
      .max(L.maxSide)
      .optional()
      .describe('px, default 480 (even)'),
    frame_rate: z
      .number()
      .int()
      .min(L.minFrameRate)
      .max(L.maxFrameRate)
      .optional()
      .describe('fps, default 24'),
  }),
  'Body of POST /api/v1/speak',
);
export type SpeakRequest = z.infer<typeof SpeakBody>;

export const DesignBody = named(
  'DesignRequest',
  z.object({
    description: textOfAtMost(L.designDescriptionChars, 1).describe(
      'the voice in words: gender, age, pitch, pace, accent',
    ),
    text: textOfAtMost(L.designTextChars, 1).describe('what the new voice says'),
    temperature: z.number().min(0).max(5).optional().describe('default 1.5'),
    top_p: z.number().gt(0).max(1).optional().describe('default 0.6'),
    top_k: z.number().int().min(0).max(10_000).optional().describe('default 50'),
    repetition_penalty: z.number().gt(0).max(10).optional().describe('default 1.1'),
    max_new_tokens: z
      .number()
      .int()
      .min(1)
      .max(L.maxNewTokens)
      .optional()
      .describe(`default 4096; one token is ${L.designMsPerToken} ms of audio`),
  }),
  'Body of POST /api/v1/design',
);
export type DesignRequest = z.infer<typeof DesignBody>;

export const DesignResponse = named(
  'DesignResponse',
  z.object({
    audio_base64: z.string().describe('24 kHz mono WAV PCM_16'),
    sample_rate: z.number().int(),
    duration_seconds: z.number(),
    gen_ms: z.number(),
    rtf: z.number().nullable(),
    format: z.literal('wav'),
  }),
);

export const PrebuildBody = named(
  'PrebuildRequest',
  z.object({ avatar_ref: z.string().min(1).describe('avatar version id') }),
);

export const PrebuildStatus = z
  .string()
  .describe(
    'building, cached, persona_unavailable, prebuild_unsupported, unreachable, or error_<code>',
  );

export const PrebuildResponse = named(
  'PrebuildResponse',
  z.object({
    ok: z.boolean().describe('true when at least one box accepted or already had it'),
    avatar_ref: z.string(),
    boxes: z.array(z.object({ box_id: z.string(), status: PrebuildStatus })),
  }),
);
