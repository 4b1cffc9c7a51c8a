/**
 * RGB24 -> I420 (yuv420p, BT.601 limited range, 2x2 chroma average) for the live encoder,
 * converting only the row pairs that changed since the previous frame. Talking and idle
 * frames repaint a mouth and eyes over a still portrait, so most rows are reused and the
 * conversion costs a fraction of ffmpeg's swscale pass on every full frame (which was about
 * a third of the encoder's CPU).
 */
export class I420Converter {
  private readonly prev: Buffer;
  private readonly out: Buffer;
  private fresh = true;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    if (width % 2 || height % 2) throw new Error('I420 needs an even frame size');
    this.prev = Buffer.alloc(width * height * 3);
    this.out = Buffer.alloc((width * height * 3) / 2);
  }

  /** The I420 frame for `rgb` (a view of an internal buffer: copy it before the next call). */
  convert(rgb: Buffer): Buffer {
    const w3 = this.width * 3;
    for (let j = 0; j < this.height; j += 2) {
      const a = j * w3;
      const b = a + 2 * w3;
      if (!this.fresh && rgb.compare(this.prev, a, b, a, b) === 0) continue;
      rgb.copy(this.prev, a, a, b);
      this.rows(rgb, j);
    }
    this.fresh = false;
    return this.out;
  }

  private rows(rgb: Buffer, j: number): void {
    const { width: w, out } = this;
    const w3 = w * 3;
    const ySize = w * this.height;
    const uBase = ySize + (j / 2) * (w / 2);
    const vBase = ySize + ySize / 4 + (j / 2) * (w / 2);
    for (let i = 0; i < w; i += 2) {
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let dj = 0; dj < 2; dj++) {
        const row = (j + dj) * w3;
        for (let di = 0; di < 2; di++) {
          const k = row + (i + di) * 3;
          const r = rgb[k]!;
          const g = rgb[k + 1]!;
          const bl = rgb[k + 2]!;
          out[(j + dj) * w + i + di] = ((66 * r + 129 * g + 25 * bl + 128) >> 8) + 16;
          sr += r;
          sg += g;
          sb += bl;
        }
      }
      out[uBase + i / 2] = ((-38 * sr - 74 * sg + 112 * sb + 512) >> 10) + 128;
      out[vBase + i / 2] = ((112 * sr - 94 * sg - 18 * sb + 512) >> 10) + 128;
    }
  }
}
