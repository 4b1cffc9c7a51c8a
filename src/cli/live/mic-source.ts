/**
 * What feeds /mic_stream: an audio file (any format ffmpeg reads, resampled to 16 kHz mono
 * PCM16, spec 4.6) or the microphone through node-record-lpcm16 (an optional dependency
 * that drives sox/rec/arecord). Either way the MicPump keeps real-time cadence.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { MicPump } from '../../client/edge-mic.js';
import { MIC_SAMPLE_RATE } from '../../client/edge-events.js';
import { runFfmpeg } from '../../media/ffmpeg.js';
import { findRecorder, hasPackage, installHint } from './system-pieces.js';

export interface MicSource {
  kind: 'file' | 'mic';
  /** For the view: the file name or the recorder used. */
  label: string;
  /** Start feeding the pump. `onError` reports a recorder that fails later (device gone). */
  start(pump: MicPump, onError: (message: string) => void): void;
  stop(): void;
  /** File sources: the audio length in ms. */
  durationMs?: number;
}

/** A needed optional piece is missing; the message says what to install. */
export class MissingPieceError extends Error {
  override name = 'MissingPieceError';
}

/** Decode a whole file to 16 kHz mono PCM16 (a bad file fails here, before any minting matters). */
export async function decodeToMicPcm(file: string): Promise<Buffer> {
  if (!existsSync(file)) throw new Error(`--mic-file ${file}: no such file`);
  try {
    return await runFfmpeg([
      '-i',
      file,
      '-vn',
      '-f',
      's16le',
      '-acodec',
      'pcm_s16le',
      '-ac',
      '1',
      '-ar',
      String(MIC_SAMPLE_RATE),
      'pipe:1',
    ]);
  } catch (e) {
    throw new Error(`--mic-file ${file}: ffmpeg cannot read it as audio (${(e as Error).message})`);
  }
}

export async function micFromFile(file: string): Promise<MicSource> {
  const pcm = await decodeToMicPcm(file);
  return micFromPcm(pcm, file);
}

/** PCM16 at 16 kHz already in memory (the demo's synthesized question). */
export function micFromPcm(pcm: Buffer, label: string): MicSource {
  return {
    kind: 'file',
    label,
    durationMs: Math.round((pcm.length / 2 / MIC_SAMPLE_RATE) * 1000),
    start(pump) {
      pump.feed(pcm);
      pump.end();
    },
    stop() {},
  };
}

/** Is a live microphone possible here (the package and a recorder binary)? */
export function micAvailable(env = process.env): boolean {
  return hasPackage('node-record-lpcm16') && findRecorder(env) !== undefined;
}

export function micFromDevice(env = process.env): MicSource {
  const rec = findRecorder(env);
  if (!rec)
    throw new MissingPieceError(
      `--mic needs a recorder (sox or arecord) and none is on PATH: ${installHint('recorder')}. --mic-file and typed text work without one.`,
    );
  if (!hasPackage('node-record-lpcm16')) {
    throw new MissingPieceError(
      '--mic needs the optional package node-record-lpcm16, which is not installed: npm i node-record-lpcm16',
    );
  }
  const record = createRequire(import.meta.url)('node-record-lpcm16') as {
    record(o: Record<string, unknown>): {
      stream(): NodeJS.ReadableStream;
      stop(): void;
      process?: NodeJS.EventEmitter;
    };
  };
  let recording: ReturnType<typeof record.record> | undefined;
  let stopped = false;
  return {
    kind: 'mic',
    label: `microphone (${rec.recorder})`,
    start(pump, onError) {
      recording = record.record({
        sampleRate: MIC_SAMPLE_RATE,
        channels: 1,
        recorder: rec.recorder,
        audioType: 'raw',
        threshold: 0,
      });
      // A spawn failure or a missing device is a stream error, never a crash (MEDIA-NOTES).
      recording.process?.on('error', (e: Error) => !stopped && onError(`recorder: ${e.message}`));
      const stream = recording.stream();
      // Our own stop() kills the recorder: its non-zero exit then is no failure.
      stream.on(
        'error',
        (e: unknown) =>
          !stopped &&
          onError(
            `recorder ${rec.recorder} failed (no input device?): ${String(e).split('\n')[0]}`,
          ),
      );
      stream.on('data', (d: Buffer) => pump.feed(d));
    },
    stop() {
      stopped = true;
      try {
        recording?.stop();
      } catch {
        /* not started */
      }
    },
  };
}
