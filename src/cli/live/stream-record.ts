/**
 * `--record out.mp4`: the whole /mse stream to a file any player opens. The fMP4 bytes are
 * written as received (a crash still leaves a playable fragmented file), then remuxed into
 * a plain MP4 with its index up front (`+faststart`) so every player knows its length.
 */
import { createWriteStream, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { runFfmpeg } from '../../media/ffmpeg.js';

/** The size of the file as kept (the remux rewrites the index: not the bytes received). */
const fileSize = (path: string): number => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

export class StreamRecording {
  private readonly part: string;
  private readonly file: WriteStream;
  /** Bytes received so far (the file's size is reported by `finish`). */
  bytes = 0;
  private failed: Error | undefined;

  constructor(readonly path: string) {
    this.part = `${path}.part.mp4`;
    this.file = createWriteStream(this.part);
    this.file.on('error', (e) => (this.failed = e));
  }

  write(bytes: Uint8Array): void {
    if (this.failed) return;
    this.bytes += bytes.length;
    this.file.write(bytes);
  }

  /** Close and remux; resolves with how the file was kept and its size on disk (`bytes`). */
  async finish(): Promise<{ path: string; bytes: number; remuxed: boolean; error?: string }> {
    await new Promise<void>((r) => this.file.end(() => r()));
    if (this.failed)
      return {
        path: this.path,
        bytes: fileSize(this.part),
        remuxed: false,
        error: this.failed.message,
      };
    if (this.bytes === 0) {
      rmSync(this.part, { force: true });
      return { path: this.path, bytes: 0, remuxed: false, error: 'no media was received' };
    }
    try {
      await runFfmpeg([
        '-y',
        '-i',
        this.part,
        '-c',
        'copy',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        this.path,
      ]);
      rmSync(this.part, { force: true });
      return { path: this.path, bytes: fileSize(this.path), remuxed: true };
    } catch (e) {
      // The bytes as received are still a fragmented MP4 players open.
      renameSync(this.part, this.path);
      return {
        path: this.path,
        bytes: fileSize(this.path),
        remuxed: false,
        error: (e as Error).message,
      };
    }
  }
}
