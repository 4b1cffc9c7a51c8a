/**
 * `recording: true` (spec 4.5): raw mic audio and the rendered video of one session,
 * written under `<captures>/<session_id>/` as `mic.wav` (16 kHz mono PCM16) and
 * `video.mp4` (the /mse stream as sent: init segment then fragments, a playable
 * fragmented MP4). The control plane serves and expires them (docs/edge.md).
 *
 * Captures are final when the session's end is reported: each frame and fragment is on
 * disk when micFrame()/media() return, and close() (an end listener of the session, run
 * before its sockets close and the control plane hears of the end) patches the WAV sizes
 * and publishes the files, all before it returns. Until then they are `mic.wav.part` and
 * `video.mp4.part`, names no listing offers: nobody downloads a capture still growing.
 * A write that fails (disk full) stops the capture; its `.part` files are never offered.
 */
import { closeSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MIC_SAMPLE_RATE } from '../../contract/edge/events.js';
import { wavHeader } from '../../models/wav.js';
import { DIR_MODE, FILE_MODE } from '../private-files.js';

const PART = '.part';

export class Recorder {
  readonly dir: string;
  private readonly mic: number;
  private readonly video: number;
  private micBytes = 0;
  private closed = false;
  private failed = false;

  constructor(captureRoot: string, sessionId: string) {
    this.dir = join(captureRoot, sessionId);
    // A user's microphone: private like the rest of the data dir (docs/security.md).
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    this.mic = openSync(join(this.dir, `mic.wav${PART}`), 'w', FILE_MODE);
    this.video = openSync(join(this.dir, `video.mp4${PART}`), 'w', FILE_MODE);
    this.write(this.mic, wavHeader(0, MIC_SAMPLE_RATE));
  }

  micFrame(frame: Int16Array): void {
    if (this.write(this.mic, Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)))
      this.micBytes += frame.byteLength;
  }

  media(buf: Buffer): void {
    this.write(this.video, buf);
  }

  /** Patch the WAV sizes, close both files and give them their final names (synchronous). */
  close(): void {
    if (this.closed) return;
    this.write(this.mic, wavHeader(this.micBytes, MIC_SAMPLE_RATE), 0);
    this.closed = true;
    closeSync(this.mic);
    closeSync(this.video);
    if (this.failed) return;
    for (const name of ['mic.wav', 'video.mp4'])
      renameSync(join(this.dir, name + PART), join(this.dir, name));
  }

  /** All of `buf` at `position` (default: the end); false when nothing was written. */
  private write(fd: number, buf: Buffer, position?: number): boolean {
    if (this.closed || this.failed) return false;
    try {
      for (let off = 0; off < buf.length; ) {
        const at = position === undefined ? null : position + off;
        off += writeSync(fd, buf, off, buf.length - off, at);
      }
      return true;
    } catch {
      this.failed = true;
      return false;
    }
  }
}
