/**
 * The speech pieces speak and design use, shared with the edge: the Voice (flite in WASI,
 * src/models/voice) and voice shaping from a measured sample. (Faces, lip sync and the
 * offline MP4 come from src/media: faceFromPhoto, renderSpeechClip.)
 */
import type { Speech, Voice, VoiceShape } from '../../models/voice.js';
import { ApiError } from '../../server/api-error.js';
import {
  defaultVoice,
  resample,
  voiceShapeFromSample,
  writeWav,
} from '../../models/voice/index.js';

export function speakVoice(): Voice {
  return defaultVoice();
}

/** The reference's measured median pitch and pace (the "clone" of spec 4.10); {} when nothing is voiced. */
export function voiceShapeOf(samples: Int16Array, sampleRate: number): VoiceShape {
  return voiceShapeFromSample(samples, sampleRate) ?? {};
}

/** Mono PCM16 at any rate as a 24 kHz WAV file (design's format). */
export function toWav24k(
  samples: Int16Array,
  sampleRate: number,
): { wav: Buffer; seconds: number } {
  const out = resample(samples, sampleRate, 24_000);
  return { wav: writeWav(out, 24_000), seconds: out.length / 24_000 };
}

/**
 * Speech with no word in it (text of only symbols, emoji or a script the local voice cannot
 * read, such as "!!!" or Chinese) is the caller's input, not a failed render (issue 19 item
 * 5): 400 `invalid_request` naming `text`, instead of a silent clip the caller would only
 * discover by playing it.
 */
export function requireWords(speech: Speech): void {
  if (speech.words === undefined || speech.words.length > 0) return;
  throw new ApiError(400, 'invalid_request', {
    message:
      'the voice found nothing to say in this text (the local TTS reads English words and numbers)',
    detail: 'text: nothing the local voice can say (it reads English words and numbers)',
  });
}
