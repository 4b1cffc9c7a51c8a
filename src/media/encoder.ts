/**
 * The one encoder setting every live media piece shares (issue 8 item 5): the idle loops the
 * emulator pre-builds, the still loop, and the talking segments encoded per reply. Same
 * settings give a byte-identical init segment, which is what lets the session stream splice
 * pre-encoded and live clips into one timeline by patching `tfdt`/`mfhd` only
 * (MEDIA-NOTES "Re-timing").
 *
 * H.264 constrained baseline (no B-frames, one reference frame, x264 zerolatency, one
 * thread), yuv420p, a keyframe every 2 s; AAC-LC mono 16 kHz (the Voice's rate) at 32 kb/s;
 * fragmented MP4 (`empty_moov+default_base_moof`) cut every 160 ms.
 *
 * Clip lengths are whole UNIT_MS (320 ms = 8 frames at 25 fps = 5 AAC frames of 1024
 * samples): with the AAC encoder's 1024-sample priming, ffmpeg then ends the audio and the
 * video track of a clip at exactly the same time (length + 64 ms), so clips butt together
 * with no drift. That is why the session stream runs at 25 fps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ffmpegPath, writeAsync } from './ffmpeg.js';

export const MEDIA_FPS = 25;
export const AUDIO_RATE = 16000;
export const SAMPLES_PER_FRAME = AUDIO_RATE / MEDIA_FPS;
/** Clips are whole multiples of this (see above). */
export const UNIT_MS = 320;
export const FRAMES_PER_UNIT = (UNIT_MS * MEDIA_FPS) / 1000;
/**
 * Fragment length ffmpeg is asked for. Audio frames (64 ms) do not divide it, so a
 * fragment's audio may reach up to 64 ms past its video: 160 ms keeps every fragment's
 * span under issue 8's 250 ms.
 */
export const FRAGMENT_MS = 160;

/** Frames for at least `ms` of media, rounded up to whole units. */
export function framesFor(ms: number): number {
  return Math.max(1, Math.ceil(ms / UNIT_MS)) * FRAMES_PER_UNIT;
}

/** ffmpeg arguments: raw RGB24 video on stdin, mono PCM16 on fd 3, fMP4 on stdout. */
export function encoderArgs(width: number, height: number): string[] {
  return [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-probesize', '32', '-analyzeduration', '0',
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, '-r', String(MEDIA_FPS), '-i', 'pipe:0',
    '-probesize', '32', '-analyzeduration', '0',
    '-f', 's16le', '-ar', String(AUDIO_RATE), '-ac', '1', '-i', 'pipe:3',
    '-map', '0:v', '-map', '1:a',
    '-c:v', 'libx264', '-profile:v', 'baseline', '-level', '3.0', '-preset', 'ultrafast', '-tune', 'zerolatency',
    '-bf', '0', '-refs', '1', '-g', String(MEDIA_FPS * 2), '-threads', '1', '-crf', '28', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '32k', '-ar', String(AUDIO_RATE), '-ac', '1',
    '-f', 'mp4', '-movflags', 'empty_moov+default_base_moof', '-frag_duration', String(FRAGMENT_MS * 1000),
    '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact',
    'pipe:1',
  ];
}

export interface EncodeJob {
  width: number;
  height: number;
  /** Number of video frames (a multiple of FRAMES_PER_UNIT). */
  frames: number;
  /** RGB24 frame `i` (may reuse one buffer: it is written before the next call). */
  frame(i: number): Buffer;
  /** Mono PCM16 at AUDIO_RATE, exactly frames * SAMPLES_PER_FRAME long (pad with zeros). */
  audio: Int16Array;
  /** fMP4 bytes as ffmpeg writes them. */
  onData(chunk: Buffer): void;
  signal?: AbortSignal;
  /** Take a pre-spawned encoder (talking segments: saves the ~30-200 ms process start). */
  warm?: boolean;
}

type Refable = { ref?(): void; unref?(): void };
const spares = new Map<string, ChildProcess>();

function spawnEncoder(width: number, height: number): ChildProcess {
  return spawn(ffmpegPath(), encoderArgs(width, height), { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
}

function setRef(p: ChildProcess, on: boolean): void {
  for (const s of [p, ...p.stdio] as Refable[]) (on ? s?.ref : s?.unref)?.call(s);
}

/**
 * One spare encoder per frame size for the whole process, spawned ahead and blocked on its
 * empty stdin (no CPU; it never keeps Node alive and exits on EOF when Node does). A
 * listening session still runs nothing: the spare is shared by every session of the process.
 */
function takeEncoder(width: number, height: number): ChildProcess {
  const key = `${width}x${height}`;
  let p = spares.get(key);
  spares.delete(key);
  if (!p || p.exitCode !== null || p.signalCode !== null) p = spawnEncoder(width, height);
  else setRef(p, true);
  setImmediate(() => warmEncoder(width, height));
  return p;
}

/** Make sure a spare encoder for this frame size is waiting (session streams call it at ready()). */
export function warmEncoder(width: number, height: number): void {
  const key = `${width}x${height}`;
  if (spares.has(key)) return;
  const spare = spawnEncoder(width, height);
  spare.on('error', () => spares.delete(key));
  spare.on('exit', () => spares.get(key) === spare && spares.delete(key));
  for (const s of spare.stdio) s?.on('error', () => {});
  setRef(spare, false);
  spares.set(key, spare);
}

/**
 * Encode one clip. Video and audio are pumped from separate loops (awaiting both pipes'
 * drains together deadlocks: MEDIA-NOTES). Resolves when ffmpeg exits cleanly.
 */
/** Encodes started in this process (tests and the bench check a listening session starts none). */
export const encoderStats = { clips: 0 };

export function encodeClip(job: EncodeJob): Promise<void> {
  encoderStats.clips++;
  return new Promise((resolve, reject) => {
    if (job.signal?.aborted) return reject(new Error('encode aborted'));
    const p = job.warm ? takeEncoder(job.width, job.height) : spawnEncoder(job.width, job.height);
    const kill = () => p.kill('SIGKILL');
    job.signal?.addEventListener('abort', kill, { once: true });
    p.on('close', () => job.signal?.removeEventListener('abort', kill));
    let err = '';
    p.stdout!.on('data', (d: Buffer) => job.onData(d));
    p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(job.signal?.aborted ? 'encode aborted' : `ffmpeg exited ${code ?? signal}: ${err.trim().slice(0, 300)}`));
    });
    const video = p.stdin!;
    const audio = p.stdio[3] as NodeJS.WritableStream;
    video.on('error', () => {});
    (audio as unknown as { on(e: string, f: () => void): void }).on('error', () => {});
    const pump = async () => {
      for (let i = 0; i < job.frames; i++) {
        if (job.signal?.aborted) return;
        await writeAsync(video, Buffer.from(job.frame(i)));
      }
    };
    const pumpAudio = async () => {
      // ~100 ms chunks so ffmpeg interleaves audio with the first frames at once.
      const pcm = Buffer.from(job.audio.buffer, job.audio.byteOffset, job.audio.byteLength);
      const step = SAMPLES_PER_FRAME * 2 * 3;
      for (let o = 0; o < pcm.length; o += step) {
        if (job.signal?.aborted) return;
        await writeAsync(audio, pcm.subarray(o, Math.min(pcm.length, o + step)));
      }
    };
    pump().then(() => video.end(), () => video.end());
    pumpAudio().then(() => audio.end(), () => audio.end());
  });
}
