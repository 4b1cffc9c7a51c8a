/**
 * `recording: true` (spec 4.5): raw mic audio and the rendered video of one session,
 * written under `<captures>/<session_id>/` as `mic.wav` (16 kHz mono PCM16) and
 * `video.mp4` (the /mse stream as sent: init segment then fragments, a playable
 * fragmented MP4). The control plane serves and expires them (docs/edge.md).
 */
import {
  createWriteStream,
  mkdirSync,
  openSync,
  writeSync,
  closeSync,
  type WriteStream,
} from 'node:fs';
import { join } from 'node:path';
import { MIC_SAMPLE_RATE } from '../../contract/edge/events.js';
import { wavHeader } from '../../models/wav.js';
import { DIR_MODE, FILE_MODE } from '../private-files.js';

export class Recorder {
  readonly dir: string;
  private readonly mic: WriteStream;
  private readonly video: WriteStream;
  private micBytes = 0;
  private closed = false;

  constructor(captureRoot: string, sessionId: string) {
    this.dir = join(captureRoot, sessionId);
    // A user's microphone: private like the rest of the data dir (docs/security.md).
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    this.mic = createWriteStream(join(this.dir, 'mic.wav'), { mode: FILE_MODE });
    this.mic.write(wavHeader(0, MIC_SAMPLE_RATE));
    this.video = createWriteStream(join(this.dir, 'video.mp4'), { mode: FILE_MODE });
  }

  micFrame(frame: Int16Array): void {
    if (this.closed) return;
    this.mic.write(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
    this.micBytes += frame.byteLength;
  }

  media(buf: Buffer): void {
    if (!this.closed) this.video.write(buf);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([new Promise((r) => this.mic.end(r)), new Promise((r) => this.video.end(r))]);
    // Patch the WAV sizes now that the length is known.
    const fd = openSync(join(this.dir, 'mic.wav'), 'r+');
    try {
      const header = wavHeader(this.micBytes, MIC_SAMPLE_RATE);
      writeSync(fd, header, 0, header.length, 0);
    } finally {
      closeSync(fd);
    }
  }
}
