/**
 * An uploaded face photo as a frame source: the photo is decoded once with ffmpeg,
 * scaled to cover the portrait frame and centre-cropped; frames are the still with a
 * slow breathing sway (a vertical shift of up to two pixels, a full cycle per loop so it
 * loops seamlessly). Without face landmarks the eyes and mouth are not animated: the
 * still is what a session holds between replies (spec 1, idle media).
 */
import type { FrameSource } from './clips.js';
import type { FrameState } from './face.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.js';

/**
 * Decode any image ffmpeg reads (jpeg, png, webp) to RGB24 `width`x`height`, cover-cropped.
 * The image is read from a temp file, not a pipe: the shipped ffmpeg cannot probe a WebP
 * from a pipe (`webp_pipe` finds no dimensions), while the file demuxer reads it fine.
 */
export async function decodePhoto(
  bytes: Uint8Array,
  width = 352,
  height = 480,
  opts: { signal?: AbortSignal } = {},
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-photo-'));
  try {
    const file = join(dir, 'photo');
    await writeFile(file, bytes);
    const rgb = await runFfmpeg(
      [
        '-i', file, '-frames:v', '1',
        '-vf', `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`,
        '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
      ],
      undefined,
      opts,
    );
    if (rgb.length !== width * height * 3) throw new Error(`photo decoded to ${rgb.length} bytes, expected ${width * height * 3}`);
    return rgb;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export class PhotoRenderer implements FrameSource {
  constructor(
    private readonly rgb: Buffer,
    readonly width = 352,
    readonly height = 480,
  ) {}

  render(state: FrameState, out?: Buffer): Buffer {
    const buf = out ?? Buffer.alloc(this.rgb.length);
    const row = this.width * 3;
    const dy = Math.round(state.sway ?? 0);
    for (let y = 0; y < this.height; y++) {
      const src = Math.min(this.height - 1, Math.max(0, y - dy));
      this.rgb.copy(buf, y * row, src * row, src * row + row);
    }
    return buf;
  }
}

/** Breathing sway for a photo loop: 0 to 2 px and back once per loop. */
export function photoIdleState(frame: number, _fps: number, loopFrames: number): FrameState {
  return { eyes: 1, mouth: 0, sway: 1 - Math.cos((2 * Math.PI * frame) / loopFrames) };
}
