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
    this.mic.write(wavHeader(0));
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
      writeSync(fd, wavHeader(this.micBytes), 0, 44, 0);
    } finally {
      closeSync(fd);
    }
  }
}

function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(16_000, 24);
  h.writeUInt32LE(32_000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
