/**
 * The media pieces speak and design use, all shared with the edge: the Voice (flite in
 * WASI, src/models/voice), voice shaping from a measured sample, the photo renderer
 * (src/media) and the recognizer for automatic transcripts. One place to swap them.
 */
import type { FrameSource } from '../../media/clips.js';
import type { FrameState } from '../../media/face.js';
import { PhotoRenderer } from '../../media/photo.js';
import type { Recognition } from '../../models/recognizer.js';
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
 * Automatic transcript of a voice reference (spec: "omit to auto-transcribe and cache").
 * No recognizer is wired here yet: the transcript is null (docs/generations.md); the
 * local synthesizer does not use a transcript anyway.
 */
export async function transcribeReference(_samples: Int16Array, _sampleRate: number): Promise<Recognition | null> {
  return null;
}

/** Mouth openness of one phone (flite's US English phone set). */
function phoneOpenness(p: string): number {
  if (p === 'pau' || p === 'h#' || p === 'sil') return 0;
  if (/^(aa|ae|ah|ao|aw|ay)$/.test(p)) return 0.95;
  if (/^(eh|er|ey|ow|oy)$/.test(p)) return 0.7;
  if (/^(ih|iy|uh|uw|ax)$/.test(p)) return 0.5;
  if (/^(p|b|m)$/.test(p)) return 0.02;
  if (/^(f|v)$/.test(p)) return 0.15;
  if (/^(w|r|l|y)$/.test(p)) return 0.35;
  return 0.25;
}

/**
 * Per-frame face state of speech: the mouth follows the phone timings (an open vowel opens
 * wide, p/b/m close it), eased over ~40 ms so it never snaps; without phones it follows the
 * speech envelope. Eyes blink every ~3.5 s.
 */
export function speakMouth(speech: Speech): (frame: number, fps: number) => FrameState {
  const phones = speech.phones ?? [];
  const env = phones.length === 0 ? envelope(speech) : null;
  const at = (ms: number): number => {
    if (env) return env[Math.min(env.length - 1, Math.max(0, Math.floor(ms / 10)))] ?? 0;
    let lo = 0;
    let hi = phones.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (phones[mid]!.endMs <= ms) lo = mid + 1;
      else hi = mid;
    }
    const p = phones[lo];
    return p && ms >= p.startMs && ms < p.endMs ? phoneOpenness(p.text) : 0;
  };
  return (frame, fps) => {
    const ms = (frame / fps) * 1000;
    const mouth = (at(ms - 40) + 2 * at(ms) + at(ms + 40)) / 4;
    const t = (ms / 1000) % 3.5;
    const eyes = t > 3.3 ? Math.abs(t - 3.4) / 0.1 : 1;
    return { mouth, eyes };
  };
}

/** RMS per 10 ms, normalized to the loudest. */
function envelope(speech: Speech): number[] {
  const hop = Math.round(speech.sampleRate / 100);
  const out: number[] = [];
  for (let o = 0; o < speech.samples.length; o += hop) {
    let e = 0;
    const end = Math.min(speech.samples.length, o + hop);
    for (let i = o; i < end; i++) e += speech.samples[i]! * speech.samples[i]!;
    out.push(Math.sqrt(e / Math.max(1, end - o)));
  }
  const max = Math.max(1, ...out);
  return out.map((v) => Math.min(1, (v / max) * 1.4));
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
