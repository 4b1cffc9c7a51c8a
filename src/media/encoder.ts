/**
 * The one encoder setting every live media piece shares (issue 8 item 5): the idle loops the
 * emulator pre-builds, the still loop, and the talking segments encoded per reply. Same
 * settings give a byte-identical init segment, which is what lets the session stream splice
 * pre-encoded and live clips into one timeline by patching `tfdt`/`mfhd` only
 * (MEDIA-NOTES "Re-timing").
 *
 * H.264 constrained baseline (no B-frames, one reference frame, x264 zerolatency, one
 * thread), yuv420p, a keyframe every 1.92 s; AAC-LC mono 32 kHz at 40 kb/s (fed the Voice's
 * 16 kHz PCM; ffmpeg resamples); fragmented MP4 (`empty_moov+default_base_moof`) cut every
 * 160 ms. (40 kb/s: on flite speech, AAC at 32 kHz and 32 kb/s measured ~3 dB SNR below the
 * former 16 kHz at 32 kb/s; 40 kb/s is level with it.)
 *
 * Why 32 kHz and 25 fps: an AAC frame is 1024 samples, 32 ms at 32 kHz, and a video frame
 * 40 ms, so every 160 ms (UNIT_MS: 4 frames, 5 AAC frames) both tracks have a boundary.
 * The AAC encoder's 1024-sample priming (32 ms) is laid over the clip's first 32 ms of
 * audio (`-itsoffset`, and the PCM fed starts 32 ms in; a primed spare below has its
 * priming in the primer), so both tracks of a clip start at 0 with every video frame 40 ms,
 * every fragment ends its audio and its video together, and clips of whole units butt
 * together with no gap and no held frame (docs/media.md "Clip joins"). At 16 kHz (64 ms AAC
 * frames) no fragment length under 250 ms could do that.
 */
import type { ChildProcess } from 'node:child_process';
import {
  ffmpegDone,
  H264_BASELINE,
  LIVE_INPUT,
  spawnFfmpeg,
  writeAsync,
  writeFlushed,
} from './ffmpeg.js';
import { splitFmp4 } from './fmp4.js';
import { I420Converter } from './i420.js';

export const MEDIA_FPS = 25;
/** The stream's AAC sample rate (also its audio track's timescale). */
export const AUDIO_RATE = 32000;
/** The rate of the PCM an encoder is fed (the Voice's). */
export const PCM_RATE = 16000;

/** AAC-LC mono at AUDIO_RATE, 40 kb/s: the one audio setting of every stream (the header explains the rate). */
export const aacOutput = (): string[] => [
  '-c:a',
  'aac',
  '-b:a',
  '40k',
  '-ar',
  String(AUDIO_RATE),
  '-ac',
  '1',
];

/** The Voice's PCM (16-bit mono at PCM_RATE) as an ffmpeg input read from `pipe`. */
export const pcmInput = (pipe: string): string[] => [
  '-f',
  's16le',
  '-ar',
  String(PCM_RATE),
  '-ac',
  '1',
  '-i',
  pipe,
];
/** PCM samples per video frame. */
export const SAMPLES_PER_FRAME = PCM_RATE / MEDIA_FPS;
/** The AAC encoder's priming, 1024 samples: a clip's first AAC frame. */
export const PRIMING_MS = (1024 * 1000) / AUDIO_RATE;
/** Clips are whole multiples of this (see above): one fragment. */
export const UNIT_MS = 160;
export const FRAMES_PER_UNIT = (UNIT_MS * MEDIA_FPS) / 1000;
/** Fragment length ffmpeg is asked for: one unit, so each fragment ends both tracks together. */
export const FRAGMENT_MS = UNIT_MS;
/**
 * Keyframe interval: 48 frames (1.92 s), a whole number of units. Fragments are also cut at
 * keyframes, and one off the unit grid (2 s would be frame 50) moves every later fragment's
 * video off its audio.
 */
export const KEYFRAME_FRAMES = 12 * FRAMES_PER_UNIT;

/** Frames for at least `ms` of media, rounded up to whole units. */
export function framesFor(ms: number): number {
  return Math.max(1, Math.ceil(ms / UNIT_MS)) * FRAMES_PER_UNIT;
}

/** ffmpeg arguments: raw I420 video on stdin (converted by i420.ts), mono PCM16 on fd 3, fMP4 on stdout. */
export function encoderArgs(
  width: number,
  height: number,
  opts: { keyframeAt?: number; keyframes?: string } = {},
): string[] {
  return [
    ...LIVE_INPUT,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'yuv420p',
    '-s',
    `${width}x${height}`,
    '-r',
    String(MEDIA_FPS),
    '-i',
    'pipe:0',
    // The audio input starts PRIMING_MS late, so the priming frame ffmpeg's AAC encoder puts
    // before it lands at 0, on the video's first frame (no frame held over it).
    '-probesize',
    '32',
    '-analyzeduration',
    '0',
    '-itsoffset',
    String(PRIMING_MS / 1000),
    ...pcmInput('pipe:3'),
    ...encoderOutputArgs(opts),
    'pipe:1',
  ];
}

/**
 * The output half of encoderArgs: maps input 0's video and input 1's audio, the codecs and
 * the fragmenting, with no output target (the bench's bare-ffmpeg references use these too,
 * so they encode exactly as the live encoder does).
 */
export function encoderOutputArgs(
  opts: { keyframeAt?: number; keyframes?: string } = {},
): string[] {
  // A primed spare (below) forces an IDR where the real content starts; the mouth-shape bank
  // (visemes.ts) forces its own pattern.
  const forced = opts.keyframes
    ? ['-force_key_frames', `expr:${opts.keyframes}`]
    : opts.keyframeAt
      ? ['-force_key_frames', `expr:eq(n,${opts.keyframeAt})`]
      : [];
  return [
    '-map',
    '0:v',
    '-map',
    '1:a',
    ...H264_BASELINE,
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-bf',
    '0',
    '-refs',
    '1',
    '-g',
    String(KEYFRAME_FRAMES),
    '-threads',
    '1',
    '-crf',
    '28',
    '-pix_fmt',
    'yuv420p',
    ...forced,
    ...aacOutput(),
    '-f',
    'mp4',
    '-movflags',
    'empty_moov+default_base_moof+frag_keyframe',
    '-frag_duration',
    String(FRAGMENT_MS * 1000),
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    '-flags:a',
    '+bitexact',
  ];
}

export interface EncodeJob {
  width: number;
  height: number;
  /** Number of video frames (a multiple of FRAMES_PER_UNIT). */
  frames: number;
  /** RGB24 frame `i` (may reuse one buffer: it is converted before the next call). */
  frame(i: number): Buffer;
  /**
   * Mono PCM16 at PCM_RATE, exactly frames * SAMPLES_PER_FRAME long (pad with zeros); sample
   * time t plays at clip time t. Its first PRIMING_MS should be silence: an encoder that was
   * not primed plays the AAC priming there instead (those samples are not fed).
   */
  audio: Int16Array;
  /** fMP4 bytes as ffmpeg writes them. */
  onData(chunk: Buffer): void;
  signal?: AbortSignal;
  /** Take a pre-spawned, primed encoder (talking segments: saves the process start and codec init). */
  warm?: boolean;
  /**
   * Called before any data: `skipMs` of clip time to drop (a primed encoder's first unit;
   * 0 otherwise). Fragments that start before skipMs are the primer's.
   */
  onStart?(info: { skipMs: number }): void;
  /**
   * Real-time pacing (live talking segments, session-stream.ts): called before the media at
   * clip time `ms` (since the job's first frame) is fed; a returned promise holds the feed
   * until it resolves. Without it the clip is fed as fast as ffmpeg takes it.
   */
  pace?(ms: number): Promise<void> | void;
  /**
   * Live encodes: the first `urgentMs` of media are what a listener is waiting for. A taken
   * spare is replaced only after them (or when the encode ends), so the replacement's
   * start-up and priming do not compete with them for the CPU.
   */
  urgentMs?: number;
  /** An ffmpeg `-force_key_frames` expression (e.g. `eq(mod(n,2),0)`), for clips that are not warm. */
  keyframes?: string;
}

type Refable = { ref?(): void; unref?(): void };
interface Spare {
  p: ChildProcess;
  /** stdout the primer produced while waiting (its init segment and first fragments). */
  early: Buffer[];
  collect: (d: Buffer) => void;
}
/**
 * Primed spares kept per frame size (~20 MB each, no CPU while waiting): every sentence of
 * a reply takes one, so a box with many sessions replying at once needs a few.
 */
export const SPARES_PER_SIZE = 4;
const spares = new Map<string, Spare[]>();

function spawnEncoder(
  width: number,
  height: number,
  opts: { keyframeAt?: number; keyframes?: string } = {},
): ChildProcess {
  return spawnFfmpeg(encoderArgs(width, height, opts), { fd3: true });
}

function setRef(p: ChildProcess, on: boolean): void {
  for (const s of [p, ...p.stdio] as Refable[]) (on ? s?.ref : s?.unref)?.call(s);
}

/**
 * One spare encoder per frame size for the whole process, spawned ahead and *primed*: it
 * is fed one unit (160 ms) of grey frames and silence at once, so ffmpeg, x264 and the AAC
 * encoder are initialised and the init segment written before any reply needs it; then it
 * blocks on its pipes (no CPU; it never keeps Node alive and exits on EOF when Node does).
 * A reply's frames follow the primer with a forced IDR, and the primer's fragments are
 * dropped (`onStart` skipMs). A listening session still runs nothing: the spare is shared
 * by every session of the process.
 */
function takeEncoder(
  width: number,
  height: number,
): { p: ChildProcess; early: Buffer[]; skipMs: number } {
  const key = `${width}x${height}`;
  const list = spares.get(key) ?? [];
  let spare = list.shift();
  while (spare && (spare.p.exitCode !== null || spare.p.signalCode !== null)) spare = list.shift();
  if (!spare) return { p: spawnEncoder(width, height), early: [], skipMs: 0 };
  spare.p.stdout!.off('data', spare.collect);
  setRef(spare.p, true);
  return { p: spare.p, early: spare.early, skipMs: UNIT_MS };
}

/** Make sure primed spare encoders for this frame size are waiting (session streams call it at ready()). */
export function warmEncoder(width: number, height: number): void {
  const key = `${width}x${height}`;
  const list = spares.get(key) ?? [];
  spares.set(key, list);
  while (list.length < SPARES_PER_SIZE) list.push(primedSpare(width, height, list));
}

function primedSpare(width: number, height: number, list: Spare[]): Spare {
  const p = spawnEncoder(width, height, { keyframeAt: FRAMES_PER_UNIT });
  const spare: Spare = { p, early: [], collect: (d) => spare.early.push(d) };
  const drop = () => {
    const i = list.indexOf(spare);
    if (i >= 0) list.splice(i, 1);
  };
  p.on('error', drop);
  p.on('exit', drop);
  p.stdout!.on('data', spare.collect);
  p.stderr!.resume();
  feedPrimer(p, width, height);
  setRef(p, false);
  return spare;
}

/**
 * One unit of grey frames and silence. Its audio is the unit less the priming (see
 * encoderArgs), so audio fed after it starts at UNIT_MS, with the next frame.
 */
function feedPrimer(p: ChildProcess, width: number, height: number): void {
  const grey = Buffer.alloc((width * height * 3) / 2, 128);
  for (let i = 0; i < FRAMES_PER_UNIT; i++) p.stdin!.write(grey);
  (p.stdio[3] as NodeJS.WritableStream).write(
    Buffer.alloc(((UNIT_MS - PRIMING_MS) * PCM_RATE * 2) / 1000),
  );
}

const liveInits = new Map<string, Promise<Buffer>>();

/**
 * The init segment every live clip of this frame size starts with, from one unit of grey
 * and silence encoded once per size per process. An idle loop is spliceable only if it
 * starts with exactly these bytes: a loop another build encoded can pass loadIdleLoop and
 * still differ (32 kb/s AAC changes only the esds bitrate), and then every reply's clip
 * would be refused (session-stream.ts).
 */
export function liveInit(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let init = liveInits.get(key);
  if (!init) {
    init = new Promise<Buffer>((resolve, reject) => {
      const p = spawnEncoder(width, height);
      const out: Buffer[] = [];
      p.stdout!.on('data', (d: Buffer) => out.push(d));
      ffmpegDone(p).then(() => {
        try {
          resolve(splitFmp4(Buffer.concat(out)).init);
        } catch (e) {
          reject(e as Error);
        }
      }, reject);
      feedPrimer(p, width, height);
      p.stdin!.end();
      (p.stdio[3] as NodeJS.WritableStream).end();
    });
    init.catch(() => liveInits.delete(key));
    liveInits.set(key, init);
  }
  return init;
}

/** Encodes started in this process (tests and the bench check a listening session starts none). */
export const encoderStats = { clips: 0 };

/**
 * Encode one clip. Video and audio are pumped from separate loops (awaiting both pipes'
 * drains together deadlocks: MEDIA-NOTES). Resolves when ffmpeg exits cleanly.
 */
export function encodeClip(job: EncodeJob): Promise<void> {
  encoderStats.clips++;
  return new Promise((resolve, reject) => {
    if (job.signal?.aborted) return reject(new Error('encode aborted'));
    const taken = job.warm
      ? takeEncoder(job.width, job.height)
      : {
          p: spawnEncoder(job.width, job.height, job.keyframes ? { keyframes: job.keyframes } : {}),
          early: [],
          skipMs: 0,
        };
    const p = taken.p;
    // A taken spare is replaced once this encode's urgent start is over (or it ends): the
    // replacement's start-up and priming would otherwise compete with the reply's first words.
    let urgent = true;
    const background = () => {
      if (!urgent) return;
      urgent = false;
      if (job.warm) setImmediate(() => warmEncoder(job.width, job.height));
    };
    p.once('close', background);
    job.onStart?.({ skipMs: taken.skipMs });
    for (const d of taken.early) job.onData(d);
    const kill = () => p.kill('SIGKILL');
    job.signal?.addEventListener('abort', kill, { once: true });
    p.on('close', () => job.signal?.removeEventListener('abort', kill));
    p.stdout!.on('data', (d: Buffer) => job.onData(d));
    ffmpegDone(p).then(resolve, (e: Error) =>
      reject(job.signal?.aborted ? new Error('encode aborted') : e),
    );
    const video = p.stdin!;
    const audio = p.stdio[3] as NodeJS.WritableStream;
    const i420 = new I420Converter(job.width, job.height);
    const pump = async () => {
      const gone = () => p.exitCode !== null || p.signalCode !== null;
      for (let i = 0; i < job.frames && !gone(); i++) {
        if (urgent && job.urgentMs !== undefined && (i * 1000) / MEDIA_FPS >= job.urgentMs)
          background();
        const held = job.pace?.((i * 1000) / MEDIA_FPS);
        if (held) await held;
        if (job.signal?.aborted) return;
        // The converter's buffer is reused for the next frame once this write is flushed.
        await writeFlushed(video, i420.convert(job.frame(i)));
      }
    };
    const pumpAudio = async () => {
      // ~100 ms chunks so ffmpeg interleaves audio with the first frames at once. An encoder
      // not primed plays its AAC priming over the clip's first PRIMING_MS: those samples go.
      const skip = taken.skipMs === 0 ? (PRIMING_MS * PCM_RATE * 2) / 1000 : 0;
      const pcm = Buffer.from(job.audio.buffer, job.audio.byteOffset, job.audio.byteLength);
      const step = SAMPLES_PER_FRAME * 2 * 3;
      for (let o = skip; o < pcm.length; o += step) {
        const held = job.pace?.((o * 1000) / (PCM_RATE * 2));
        if (held) await held;
        if (job.signal?.aborted) return;
        await writeAsync(audio, pcm.subarray(o, Math.min(pcm.length, o + step)));
      }
    };
    pump().then(
      () => video.end(),
      () => video.end(),
    );
    pumpAudio().then(
      () => audio.end(),
      () => audio.end(),
    );
  });
}
