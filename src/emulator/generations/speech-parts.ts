/**
 * The media pieces speak and design use, all shared with the edge: the Voice (flite in
 * WASI, src/models/voice), voice shaping from a measured sample, the photo renderer and the
 * lip sync (src/media). One place to swap them.
 */
import type { FrameSource } from '../../media/clips.js';
import type { FrameState } from '../../media/face.js';
import { mouthTrack, talkEyes } from '../../media/lip-sync.js';
import { PhotoRenderer } from '../../media/photo.js';
import type { Speech, Voice, VoiceShape } from '../../models/voice.js';
import { defaultVoice, resample, voiceShapeFromSample, writeWav } from '../../models/voice/index.js';

export function speakVoice(): Voice {
  return defaultVoice();
}

/** The reference's measured median pitch and pace (the "clone" of spec 4.10). */
export function voiceShapeOf(samples: Int16Array, sampleRate: number): VoiceShape {
  return voiceShapeFromSample(samples, sampleRate);
}

/**
 * Per-frame face state of speech, from the edge's lip sync (src/media/lip-sync.ts): the
 * mouth follows the phone timings (else the envelope), the eyes blink now and then.
 */
export function speakMouth(speech: Speech): (frame: number, fps: number) => FrameState {
  const mouth = mouthTrack(speech);
  return (frame, fps) => {
    const ms = (frame / fps) * 1000;
    return { mouth: ms < speech.durationMs ? mouth(ms) : 0, eyes: talkEyes(ms) };
  };
}

/** The face that talks: a decoded photo. */
export function speakFaceSource(rgb: Buffer, width: number, height: number): FrameSource {
  return new PhotoRenderer(rgb, width, height);
}

/** Mono PCM16 at any rate as a 24 kHz WAV file (design's format). */
export function toWav24k(samples: Int16Array, sampleRate: number): { wav: Buffer; seconds: number } {
  const out = resample(samples, sampleRate, 24_000);
  return { wav: writeWav(out, 24_000), seconds: out.length / 24_000 };
}
