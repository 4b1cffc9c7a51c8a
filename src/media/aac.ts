/**
 * A reply's sound, encoded alone (visemes.ts splices the pictures): the clip's 16 kHz PCM
 * through one audio-only ffmpeg, AAC-LC mono 32 kHz 40 kb/s like the live encoder
 * (encoder.ts), written as ADTS and cut into raw AAC frames for the fMP4 audio track. The
 * AAC encoder's first frame is its priming (1024 samples): placed at clip time 0 with the
 * first PRIMING_MS of the clip's PCM left out, sample time t plays at clip time t, exactly
 * as in a live encode. An audio-only encode costs ~6 ms of CPU per media second; the process
 * start is paid ahead by spares (spawned, waiting on stdin, no CPU).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { AUDIO_RATE, PCM_RATE, PRIMING_MS } from './encoder.js';
import { ffmpegPath } from './ffmpeg.js';

const ARGS = [
  '-hide_banner', '-loglevel', 'error', '-nostdin',
  '-probesize', '32', '-analyzeduration', '0', '-f', 's16le', '-ar', String(PCM_RATE), '-ac', '1', '-i', 'pipe:0',
  '-c:a', 'aac', '-b:a', '40k', '-ar', String(AUDIO_RATE), '-ac', '1',
  '-fflags', '+bitexact', '-flags:a', '+bitexact', '-flush_packets', '1', '-f', 'adts', 'pipe:1',
];

/** Spare audio encoders kept waiting (each ~10 MB, no CPU). */
const SPARES = 4;
const spares: ChildProcess[] = [];
type Refable = { ref?(): void; unref?(): void };

function setRef(p: ChildProcess, on: boolean): void {
  for (const s of [p, ...p.stdio] as Refable[]) (on ? s?.ref : s?.unref)?.call(s);
}

function spawnAac(): ChildProcess {
  const p = spawn(ffmpegPath(), ARGS, { stdio: ['pipe', 'pipe', 'pipe'] });
  for (const s of p.stdio) s?.on('error', () => {});
  return p;
}

/** Keep spare audio encoders waiting (the session stream calls it at ready()). */
export function warmAac(): void {
  while (spares.length < SPARES) {
    const p = spawnAac();
    const drop = () => {
      const i = spares.indexOf(p);
      if (i >= 0) spares.splice(i, 1);
    };
    p.on('error', drop);
    p.on('exit', drop);
    setRef(p, false);
    spares.push(p);
  }
}

function takeAac(): ChildProcess {
  let p = spares.shift();
  while (p && (p.exitCode !== null || p.signalCode !== null)) p = spares.shift();
  if (!p) return spawnAac();
  setRef(p, true);
  return p;
}

/** Audio encodes started in this process. */
export const aacStats = { encodes: 0 };

/**
 * Encode `pcm` (mono PCM16 at PCM_RATE; sample time t should play at clip time t, its first
 * PRIMING_MS silence) into raw AAC frames, each passed to `onFrame` as it comes out: frame k
 * plays at clip time k * 1024 / AUDIO_RATE. Resolves when the encoder exits.
 */
export function encodeAac(pcm: Int16Array, onFrame: (frame: Buffer) => void, signal?: AbortSignal): Promise<void> {
  aacStats.encodes++;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('encode aborted'));
    const p = takeAac();
    const kill = () => p.kill('SIGKILL');
    signal?.addEventListener('abort', kill, { once: true });
    let pending: Buffer = Buffer.alloc(0);
    let err = '';
    p.stdout!.on('data', (d: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, d]) : d;
      // ADTS: 12-bit sync word, frame_length (13 bits, header included) at bits 30-42.
      while (pending.length >= 7) {
        if (pending[0] !== 0xff || (pending[1]! & 0xf0) !== 0xf0) return void p.kill('SIGKILL');
        const len = ((pending[3]! & 3) << 11) | (pending[4]! << 3) | (pending[5]! >> 5);
        if (pending.length < len) break;
        const header = pending[1]! & 1 ? 7 : 9;
        onFrame(Buffer.from(pending.subarray(header, len)));
        pending = pending.subarray(len);
      }
    });
    p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code, sig) => {
      signal?.removeEventListener('abort', kill);
      // The spare is replaced once this encode is over: its start-up would compete with the
      // first fragment someone is waiting for.
      setImmediate(warmAac);
      if (code === 0) resolve();
      else reject(new Error(signal?.aborted ? 'encode aborted' : `ffmpeg exited ${code ?? sig}: ${err.trim().slice(0, 300)}`));
    });
    const skip = Math.round((PRIMING_MS * PCM_RATE) / 1000);
    const body = pcm.subarray(Math.min(skip, pcm.length));
    p.stdin!.end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  });
}
