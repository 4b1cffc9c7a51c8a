/**
 * A Voice that remembers what it said: the same text in the same voice (language, shape)
 * is synthesized once and served from memory after that. A box says some lines again and
 * again (every session of a persona opens with the same greeting from the local brain; the
 * "could not make out what you said" reply), and a line served from memory reaches the
 * listener without waiting for the synthesizer (docs/media.md "Speech cache").
 *
 * Bounded by the bytes of audio kept (least recently used lines go first); calls for a line
 * already being made share that one synthesis; failures are never kept, nor
 * lines a stand-in voice said after the chosen one failed (`Speech.fallback`, route.ts). Speech objects are
 * shared between callers, which only read them.
 */
import { LRUCache } from 'lru-cache';
import type { Speech, SynthesizeOptions, Voice } from '../voice.js';

/** Audio kept by default: 16 MB is about 8 minutes of 16 kHz speech. */
export const SPEECH_CACHE_BYTES = 16 * 1024 * 1024;

export interface CachingVoice extends Voice {
  /** Lines served from memory and lines synthesized, since start (bench and tests read these). */
  readonly stats: { hits: number; misses: number; bytes: number; entries: number };
}

export function cachingVoice(voice: Voice, maxBytes = SPEECH_CACHE_BYTES): CachingVoice {
  // Lines said, by bytes of audio (a line larger than the whole budget is not kept); lines
  // being made wait beside them, shared, until their audio is known.
  const lines = new LRUCache<string, { speech: Promise<Speech>; bytes: number }>({
    maxSize: maxBytes,
    sizeCalculation: (line) => Math.max(1, line.bytes),
  });
  const making = new Map<string, Promise<Speech>>();
  let hits = 0;
  let misses = 0;
  const stats = {
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    get bytes() {
      return lines.calculatedSize;
    },
    get entries() {
      return lines.size + making.size;
    },
  };
  return {
    name: voice.name,
    voices: voice.voices,
    stats,
    synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
      // What changes the sound (and the timings offered) is the key; the deadline and the abort signal are not.
      const key = JSON.stringify([text, opts.lang ?? '', opts.shape ?? null, !!opts.lazyWords]);
      const hit = lines.get(key)?.speech ?? making.get(key);
      if (hit) {
        hits++;
        return opts.signal ? abortable(hit, opts.signal) : hit;
      }
      misses++;
      const { signal: _signal, ...rest } = opts;
      // The shared synthesis is not tied to one caller's abort; a caller that aborts stops waiting.
      const speech = voice.synthesize(text, rest);
      making.set(key, speech);
      speech.then(
        (s) => {
          if (making.get(key) !== speech) return;
          making.delete(key);
          // A stand-in's audio (espeak-ng failed once, flite read it) is not the line: ask again next time.
          if (!s.fallback) lines.set(key, { speech, bytes: s.samples.byteLength });
        },
        () => {
          if (making.get(key) === speech) making.delete(key);
        },
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
