import type { RecognitionSegment } from '../../../models/recognizer.js';
import { vadRegions } from '../../../models/recognizer/segments.js';
import { InferenceError } from '../shared/errors.js';
import type { InferenceServices } from '../services.js';
import { decodeTo16k } from './audio-codec.js';

export interface Transcript {
  language: string;
  duration: number;
  text: string;
  segments: RecognitionSegment[];
}

/**
 * Audio of any format ffmpeg reads -> 16 kHz mono -> the Recognizer the edge uses.
 * Segments come from voice activity (the VAD's speech regions, with the recogniser's word
 * timings when it has them). With no recogniser on the machine the answer is 503
 * `model_unavailable` naming what to install, never invented words.
 */
export async function transcribe(
  svc: InferenceServices,
  audio: Uint8Array,
  lang: string | undefined,
  signal?: AbortSignal,
): Promise<Transcript> {
  const rec = svc.models.recognizer;
  if (!rec || !rec.available) {
    const hint = rec ? (await rec.transcribe(new Int16Array(0))).text : 'no Recognizer configured';
    throw new InferenceError(
      503,
      'model_unavailable',
      `speech recognition is not available: ${hint}`,
    );
  }
  let samples: Int16Array;
  try {
    samples = await decodeTo16k(audio, signal);
  } catch {
    throw new InferenceError(400, 'invalid_request', 'file: not an audio file ffmpeg can read', {
      param: 'file',
    });
  }
  const duration = Math.round((samples.length / 16_000) * 1000) / 1000;
  const r = await rec.transcribe(samples, { lang, signal });
  let segments = r.segments ?? [];
  if (!r.segments && r.text) {
    // A recogniser without timings: one segment spanning the speech the VAD found.
    const regions = await vadRegions(samples);
    if (regions.length)
      segments = [{ startS: regions[0]!.startS, endS: regions.at(-1)!.endS, text: r.text }];
  }
  return {
    language: r.language ?? lang ?? 'en',
    duration,
    text: r.recognised ? r.text : '',
    segments: r.recognised ? segments : [],
  };
}

const stamp = (s: number, sep: string) => {
  const ms = Math.round(s * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const sec = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}${sep}${pad(ms % 1000, 3)}`;
};

export function toSrt(t: Transcript): string {
  return t.segments
    .map((s, i) => `${i + 1}\n${stamp(s.startS, ',')} --> ${stamp(s.endS, ',')}\n${s.text}\n`)
    .join('\n');
}

export function toVtt(t: Transcript): string {
  return `WEBVTT\n\n${t.segments.map((s) => `${stamp(s.startS, '.')} --> ${stamp(s.endS, '.')}\n${s.text}\n`).join('\n')}`;
}
