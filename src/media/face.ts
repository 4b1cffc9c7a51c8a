/**
 * Procedural portrait renderer: draws a persona's face into RGB24 frames with a given
 * mouth openness and eye openness. The still parts are drawn once; each frame repaints
 * only the eye and mouth boxes, so rendering keeps far ahead of real time.
 * Shared by the gallery fixtures, the idle-media builder and the edge's talking frames.
 */
export type Rgb = readonly [number, number, number];

export interface FaceStyle {
  background: Rgb;
  accent: Rgb;
  skin: Rgb;
  hair: Rgb;
  /** `short`, `long` or `bun`. */
  hairStyle: 'short' | 'long' | 'bun';
  shirt: Rgb;
  iris: Rgb;
  lips: Rgb;
}

export interface FrameState {
  /** 0 (closed) to 1 (wide open). */
  mouth: number;
  /** 0 (closed) to 1 (open). */
  eyes: number;
  /** Horizontal head sway in pixels (idle motion). */
  sway?: number;
}

export function hexToRgb(hex: string): Rgb {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`bad colour ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Coverage of an ellipse at a pixel, with a one-pixel soft edge (cheap anti-aliasing). */
function ellipseCover(
  x: number,
  y: number,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
): number {
  const dx = (x - cx) / rx;
  const dy = (y - cy) / ry;
  const d = Math.sqrt(dx * dx + dy * dy);
  const edge = 1 / Math.min(rx, ry);
  return clamp01((1 - d) / edge + 0.5);
}

export class FaceRenderer {
  readonly width: number;
  readonly height: number;
  private readonly base: Buffer;
  private readonly geo;

  constructor(
    readonly style: FaceStyle,
    width = 352,
    height = 480,
  ) {
    this.width = width;
    this.height = height;
    const s = width / 352;
    const cx = width / 2;
    const headCy = height * 0.42;
    this.geo = {
      s,
      cx,
      headCy,
      headRx: 92 * s,
      headRy: 118 * s,
      eyeY: headCy - 12 * s,
      eyeDx: 36 * s,
      eyeRx: 17 * s,
      eyeRy: 10 * s,
      mouthY: headCy + 62 * s,
      mouthRx: 30 * s,
      mouthMaxRy: 20 * s,
    };
    this.base = Buffer.alloc(width * height * 3);
    this.drawBase();
  }

  private blend(buf: Buffer, x: number, y: number, c: Rgb, a: number): void {
    if (a <= 0) return;
    const i = (y * this.width + x) * 3;
    if (a >= 1) {
      buf[i] = c[0];
      buf[i + 1] = c[1];
      buf[i + 2] = c[2];
      return;
    }
    buf[i] = buf[i]! + (c[0] - buf[i]!) * a;
    buf[i + 1] = buf[i + 1]! + (c[1] - buf[i + 1]!) * a;
    buf[i + 2] = buf[i + 2]! + (c[2] - buf[i + 2]!) * a;
  }

  private ellipse(
    buf: Buffer,
    cx: number,
    cy: number,
    rx: number,
    ry: number,
    c: Rgb,
    clipY?: [number, number],
  ): void {
    const x0 = Math.max(0, Math.floor(cx - rx - 1));
    const x1 = Math.min(this.width - 1, Math.ceil(cx + rx + 1));
    const y0 = Math.max(0, Math.floor(cy - ry - 1), clipY ? Math.floor(clipY[0]) : 0);
    const y1 = Math.min(
      this.height - 1,
      Math.ceil(cy + ry + 1),
      clipY ? Math.ceil(clipY[1]) : this.height - 1,
    );
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++)
        this.blend(buf, x, y, c, ellipseCover(x + 0.5, y + 0.5, cx, cy, rx, ry));
    }
  }

  private drawBase(): void {
    const { style, width, height } = this;
    const g = this.geo;
    const buf = this.base;
    // Background: vertical gradient from the background colour towards the accent.
    for (let y = 0; y < height; y++) {
      const t = y / height;
      const c: Rgb = [
        style.background[0] + (style.accent[0] - style.background[0]) * t * 0.55,
        style.background[1] + (style.accent[1] - style.background[1]) * t * 0.55,
        style.background[2] + (style.accent[2] - style.background[2]) * t * 0.55,
      ];
      for (let x = 0; x < width; x++) this.blend(buf, x, y, c, 1);
    }
    const s = g.s;
    // Long hair behind the head.
    if (style.hairStyle === 'long')
      this.ellipse(buf, g.cx, g.headCy + 40 * s, 118 * s, 170 * s, style.hair);
    // Shoulders and neck.
    this.ellipse(buf, g.cx, height + 40 * s, 175 * s, 150 * s, style.shirt);
    this.ellipse(buf, g.cx, g.headCy + 120 * s, 40 * s, 60 * s, shade(style.skin, 0.88));
    // Ears, head.
    this.ellipse(
      buf,
      g.cx - g.headRx + 4 * s,
      g.headCy + 5 * s,
      14 * s,
      24 * s,
      shade(style.skin, 0.93),
    );
    this.ellipse(
      buf,
      g.cx + g.headRx - 4 * s,
      g.headCy + 5 * s,
      14 * s,
      24 * s,
      shade(style.skin, 0.93),
    );
    this.ellipse(buf, g.cx, g.headCy, g.headRx, g.headRy, style.skin);
    // Hair on top.
    this.ellipse(buf, g.cx, g.headCy - 76 * s, 98 * s, 60 * s, style.hair, [0, g.headCy - 66 * s]);
    this.ellipse(buf, g.cx, g.headCy - 90 * s, 96 * s, 50 * s, style.hair);
    if (style.hairStyle === 'bun')
      this.ellipse(buf, g.cx, g.headCy - 140 * s, 38 * s, 30 * s, style.hair);
    // Eyebrows, nose, cheeks.
    for (const side of [-1, 1]) {
      this.ellipse(
        buf,
        g.cx + side * g.eyeDx,
        g.eyeY - 22 * s,
        20 * s,
        4 * s,
        shade(style.hair, 0.9),
      );
      this.ellipse(
        buf,
        g.cx + side * 48 * s,
        g.headCy + 38 * s,
        16 * s,
        10 * s,
        mix(style.skin, [230, 120, 120], 0.18),
      );
    }
    this.ellipse(buf, g.cx, g.headCy + 28 * s, 9 * s, 6 * s, shade(style.skin, 0.85));
  }

  /** Render one frame into `out` (allocated when omitted). Returns the RGB24 buffer. */
  render(state: FrameState, out?: Buffer): Buffer {
    const buf = out ?? Buffer.alloc(this.base.length);
    this.base.copy(buf);
    const g = this.geo;
    const s = g.s;
    const eyes = clamp01(state.eyes);
    for (const side of [-1, 1]) {
      const ex = g.cx + side * g.eyeDx;
      if (eyes > 0.08) {
        const ry = g.eyeRy * eyes;
        this.ellipse(buf, ex, g.eyeY, g.eyeRx, ry, [250, 250, 248]);
        this.ellipse(buf, ex, g.eyeY, 8 * s, Math.min(8 * s, ry), this.style.iris);
        this.ellipse(buf, ex, g.eyeY, 3.5 * s, Math.min(3.5 * s, ry), [20, 20, 24]);
      } else {
        this.ellipse(buf, ex, g.eyeY, g.eyeRx, 1.6 * s, shade(this.style.skin, 0.6));
      }
    }
    const open = clamp01(state.mouth);
    const ry = 3 * s + g.mouthMaxRy * open;
    const rx = g.mouthRx * (1 - 0.25 * open);
    this.ellipse(buf, g.cx, g.mouthY, rx + 3 * s, ry + 3 * s, this.style.lips);
    if (open > 0.04) {
      this.ellipse(buf, g.cx, g.mouthY, rx, ry, [70, 24, 32]);
      if (open > 0.3)
        this.ellipse(buf, g.cx, g.mouthY - ry * 0.55, rx * 0.7, ry * 0.28, [245, 245, 240]);
    } else {
      this.ellipse(buf, g.cx, g.mouthY, rx, 1.2 * s, shade(this.style.lips, 0.6));
    }
    return buf;
  }
}

function shade(c: Rgb, f: number): Rgb {
  return [c[0] * f, c[1] * f, c[2] * f];
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/**
 * Idle motion (ARCHITECTURE media notes): blinks every few seconds and a faint breathing
 * mouth, deterministic in the frame index so a clip loops seamlessly.
 */
export function idleState(frame: number, fps: number, loopFrames: number): FrameState {
  const t = frame / fps;
  const blinkAt = [0.9, 2.6];
  let eyes = 1;
  for (const b of blinkAt) {
    const d = Math.abs(t - b * (loopFrames / fps / 4));
    if (d < 0.09) eyes = d / 0.09;
  }
  const mouth = 0.02 + 0.02 * Math.sin((2 * Math.PI * frame) / loopFrames);
  return { eyes, mouth };
}
