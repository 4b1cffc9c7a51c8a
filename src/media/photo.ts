/**
 * An uploaded face photo as a frame source: the photo is decoded once with ffmpeg,
 * scaled to cover the portrait frame and centre-cropped; idle frames are the still with a
 * slow breathing sway (a vertical shift of up to two pixels, a full cycle per loop so it
 * loops seamlessly). Talking frames warp the mouth region (issue 8 item 5): there are no
 * face landmarks, so the face is found as the largest skin-toned region (YCbCr skin
 * range), the mouth placed at the usual proportion below its top, and for an open mouth
 * the jaw below the lip line is pushed down (displacement fading towards the chin and the
 * cheeks) with a dark mouth opening drawn in the gap. Eyes are not animated.
 */
import type { FrameSource } from './clips.js';
import type { FrameState } from './face.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.js';
import { findLips } from './find-lips.js';

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
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        'pipe:1',
      ],
      undefined,
      opts,
    );
    if (rgb.length !== width * height * 3)
      throw new Error(`photo decoded to ${rgb.length} bytes, expected ${width * height * 3}`);
    return rgb;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export class PhotoRenderer implements FrameSource {
  /** Mouth centre and face width in pixels (see findMouth). */
  readonly mouth: { x: number; y: number; faceWidth: number };
  private scratch = Buffer.alloc(0);

  constructor(
    private readonly rgb: Buffer,
    readonly width = 352,
    readonly height = 480,
  ) {
    this.mouth = findMouth(rgb, width, height);
  }

  render(state: FrameState, out?: Buffer): Buffer {
    const buf = out ?? Buffer.alloc(this.rgb.length);
    const row = this.width * 3;
    const dy = Math.round(state.sway ?? 0);
    if (dy === 0) this.rgb.copy(buf);
    else {
      for (let y = 0; y < this.height; y++) {
        const src = Math.min(this.height - 1, Math.max(0, y - dy));
        this.rgb.copy(buf, y * row, src * row, src * row + row);
      }
    }
    if (state.mouth > 0.04) this.openMouth(buf, Math.min(1, state.mouth), dy);
    return buf;
  }

  /** Jaw drop warp plus a dark opening; `open` 0..1. */
  private openMouth(buf: Buffer, open: number, dy: number): void {
    const { x: cx, faceWidth: fw } = this.mouth;
    const my = this.mouth.y + dy;
    const drop = open * 0.09 * fw;
    const halfW = 0.42 * fw;
    const reach = 0.5 * fw; // lip line to chin
    const x0 = Math.max(0, Math.floor(cx - halfW));
    const x1 = Math.min(this.width - 1, Math.ceil(cx + halfW));
    const y0 = Math.max(0, Math.floor(my));
    const y1 = Math.min(this.height - 1, Math.ceil(my + reach + drop));
    const w3 = this.width * 3;
    const need = (y1 - y0 + 1) * w3;
    if (this.scratch.length < need) this.scratch = Buffer.alloc(need);
    const src = this.scratch;
    buf.copy(src, 0, y0 * w3, (y1 + 1) * w3);
    for (let x = x0; x <= x1; x++) {
      const across = 1 - ((x - cx) / halfW) ** 2;
      if (across <= 0) continue;
      for (let y = y1; y >= y0; y--) {
        const t = Math.min(1, (y - my) / (reach + drop));
        const d = drop * across * (1 - t);
        if (d < 0.5) continue;
        const sy = Math.max(y0, Math.min(y1, Math.round(y - d)));
        const o = y * w3 + x * 3;
        const i = (sy - y0) * w3 + x * 3;
        buf[o] = src[i]!;
        buf[o + 1] = src[i + 1]!;
        buf[o + 2] = src[i + 2]!;
      }
    }
    // The opening: a dark ellipse filling the gap the jaw left.
    const rx = 0.19 * fw * (1 - 0.2 * open);
    const ry = drop / 2 + 1;
    const oy = my + drop / 2;
    for (
      let y = Math.max(0, Math.floor(oy - ry));
      y <= Math.min(this.height - 1, Math.ceil(oy + ry));
      y++
    ) {
      for (
        let x = Math.max(0, Math.floor(cx - rx));
        x <= Math.min(this.width - 1, Math.ceil(cx + rx));
        x++
      ) {
        const d = ((x - cx) / rx) ** 2 + ((y - oy) / ry) ** 2;
        if (d > 1) continue;
        const a = Math.min(1, (1 - d) * 4);
        const i = (y * this.width + x) * 3;
        buf[i] = buf[i]! + (60 - buf[i]!) * a;
        buf[i + 1] = buf[i + 1]! + (22 - buf[i + 1]!) * a;
        buf[i + 2] = buf[i + 2]! + (28 - buf[i + 2]!) * a;
      }
    }
  }
}

/**
 * Where the mouth is on a portrait without landmarks: skin pixels (YCbCr: 77<=Cb<=127,
 * 133<=Cr<=173) give the face's centre column; the lips are the band of lip-coloured
 * pixels there (find-lips.ts). When no such band is found, the mouth sits ~0.95 face widths
 * below the top of the skin region (forehead) on the skin's median column. With too little skin
 * (a drawing, a monochrome photo) it falls back to the usual spot of a centred portrait.
 */
export function findMouth(
  rgb: Buffer,
  width: number,
  height: number,
): { x: number; y: number; faceWidth: number } {
  const fallback = { x: width / 2, y: height * 0.62, faceWidth: width * 0.5 };
  const rows = new Array<number>(height).fill(0);
  const cols: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      const cb = 128 - 0.1687 * r - 0.3313 * g + 0.5 * b;
      const cr = 128 + 0.5 * r - 0.4187 * g - 0.0813 * b;
      if (cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173) {
        rows[y]!++;
        cols.push(x);
      }
    }
  }
  if (cols.length < width * height * 0.03) return fallback;
  const widest = Math.max(...rows);
  const top = rows.findIndex((n) => n > widest * 0.35);
  cols.sort((a, b) => a - b);
  const x = cols[Math.floor(cols.length / 2)]!;
  // The lips when a lip-coloured band is found (find-lips.ts); the face is then ~2.7 mouth
  // widths across (the warp's reach and the opening scale with it).
  const lips = findLips(rgb, width, height, x);
  if (lips)
    return {
      x: lips.x,
      y: lips.y,
      faceWidth: Math.max(width * 0.2, Math.min(width * 0.9, lips.width / 0.37)),
    };
  const faceWidth = Math.max(width * 0.2, Math.min(width * 0.9, widest));
  const y = Math.min(height * 0.85, top + 0.95 * faceWidth);
  return { x, y, faceWidth };
}

/** Breathing sway for a photo loop: 0 to 2 px and back once per loop. */
export function photoIdleState(frame: number, _fps: number, loopFrames: number): FrameState {
  return { eyes: 1, mouth: 0, sway: 1 - Math.cos((2 * Math.PI * frame) / loopFrames) };
}
