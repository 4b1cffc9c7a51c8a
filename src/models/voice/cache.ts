/**
 * A Voice that remembers what it said: the same text in the same voice (language, shape)
 * is synthesized once and served from memory after that. A box says some lines again and
 * again (every session of a persona opens with the same greeting from the local brain; the
 * "could not make out what you said" reply), and a line served from memory reaches the
 * listener without waiting for the synthesizer (docs/media.md "Speech cache").
 *
 * Bounded by the bytes of audio kept (least recently used lines go first); calls for a line
 * already being made share that one synthesis; failures are never kept. Speech objects are
 * shared between callers, which only read them.
 */
import type { Speech, SynthesizeOptions, Voice } from '../voice.js';

/** Audio kept by default: 16 MB is about 8 minutes of 16 kHz speech. */
export const SPEECH_CACHE_BYTES = 16 * 1024 * 1024;

export interface CachingVoice extends Voice {
  /** Lines served from memory and lines synthesized, since start (bench and tests read these). */
  readonly stats: { hits: number; misses: number; bytes: number; entries: number };
}

export function cachingVoice(voice: Voice, maxBytes = SPEECH_CACHE_BYTES): CachingVoice {
  const lines = new Map<string, { speech: Promise<Speech>; bytes: number }>();
  const stats = { hits: 0, misses: 0, bytes: 0, entries: 0 };
  const forget = (key: string) => {
    const e = lines.get(key);
    if (!e) return;
    lines.delete(key);
    stats.bytes -= e.bytes;
    stats.entries = lines.size;
  };
  return {
    name: voice.name,
    voices: voice.voices,
    stats,
    synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
      // What changes the sound (and the timings offered) is the key; urgency and the abort signal are not.
      const key = JSON.stringify([text, opts.lang ?? '', opts.shape ?? null, !!opts.lazyWords]);
      const hit = lines.get(key);
      if (hit) {
        stats.hits++;
        lines.delete(key); // most recently used goes last
        lines.set(key, hit);
        return opts.signal ? abortable(hit.speech, opts.signal) : hit.speech;
      }
      stats.misses++;
      const { signal: _signal, ...rest } = opts;
      // The shared synthesis is not tied to one caller's abort; a caller that aborts stops waiting.
      const speech = voice.synthesize(text, rest);
      const entry = { speech, bytes: 0 };
      lines.set(key, entry);
      stats.entries = lines.size;
      speech.then(
        (s) => {
          if (lines.get(key) !== entry) return;
          entry.bytes = s.samples.byteLength;
          stats.bytes += entry.bytes;
          for (const k of lines.keys()) {
            if (stats.bytes <= maxBytes || k === key) break;
            forget(k);
          }
          if (stats.bytes > maxBytes) forget(key); // one line larger than the whole cache
        },
        () => forget(key),
      );
      return opts.signal ? abortable(speech, opts.signal) : speech;
    },
  };
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}
