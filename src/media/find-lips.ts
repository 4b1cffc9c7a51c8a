/**
 * The lips on a portrait without landmarks (issue 8 item 5; used by photo.ts findMouth).
 * Lips are redder than the skin around them: against the skin tone (the median colour of
 * the skin-toned pixels in the search window) a lip pixel has less green per red and more
 * blue per green. The lips are the horizontal band of rows, in the lower-middle of the
 * frame around the face's centre column, with the most such pixels; the mouth is that
 * band's centroid and its width the band's span. Hair, brows and eyes are darker or
 * greener than lips and score low; cheeks' blush sits outside the centre window.
 * Returns null when no lip-coloured band is found (a drawing, a monochrome photo).
 */
export interface Lips {
  x: number;
  y: number;
  /** Span of the lip band in pixels. */
  width: number;
}

const isSkin = (r: number, g: number, b: number) => {
  const cb = 128 - 0.1687 * r - 0.3313 * g + 0.5 * b;
  const cr = 128 + 0.5 * r - 0.4187 * g - 0.0813 * b;
  return cb >= 77 && cb <= 127 && cr >= 133 && cr <= 173;
};

export function findLips(rgb: Buffer, width: number, height: number, cx: number): Lips | null {
  const halfW = Math.round(width * 0.2);
  const x0 = Math.max(0, Math.round(cx) - halfW);
  const x1 = Math.min(width - 1, Math.round(cx) + halfW);
  const y0 = Math.round(height * 0.3);
  const y1 = Math.round(height * 0.75);
  // Skin tone: per-channel medians of the skin-toned pixels in the window.
  const rs: number[] = [];
  const gs: number[] = [];
  const bs: number[] = [];
  for (let y = y0; y <= y1; y += 2) {
    for (let x = x0; x <= x1; x += 2) {
      const i = (y * width + x) * 3;
      if (isSkin(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)) {
        rs.push(rgb[i]!);
        gs.push(rgb[i + 1]!);
        bs.push(rgb[i + 2]!);
      }
    }
  }
  if (rs.length < 50) return null;
  const med = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1]!;
  const [sr, sg, sb] = [med(rs), med(gs), med(bs)];
  const skinGr = sg / Math.max(1, sr);
  const skinBg = sb / Math.max(1, sg);
  const counts = new Array<number>(height).fill(0);
  const xs: number[][] = Array.from({ length: height }, () => []);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const i = (y * width + x) * 3;
      const r = rgb[i]!;
      const g = rgb[i + 1]!;
      const b = rgb[i + 2]!;
      if (r < 40 || r < g) continue; // too dark to judge, or not reddish at all
      const score = skinGr - g / r + (b / Math.max(1, g) - skinBg);
      if (score > 0.15) {
        counts[y]!++;
        xs[y]!.push(x);
      }
    }
  }
  // Runs of rows with a real stretch of lip pixels; the lips are the run with the most.
  const minRow = Math.max(6, (x1 - x0) * 0.08);
  let best: { from: number; to: number; total: number } | null = null;
  for (let y = y0; y <= y1; y++) {
    if (counts[y]! < minRow) continue;
    let to = y;
    let total = 0;
    while (to <= y1 && counts[to]! >= minRow) total += counts[to++]!;
    const tall = to - y;
    // A band as tall as the window reaches (a red shirt, a red background) is not lips.
    if (tall <= height * 0.1 && to <= y1 && (!best || total > best.total))
      best = { from: y, to: to - 1, total };
    y = to;
  }
  if (!best) return null;
  let sy = 0;
  let sx = 0;
  const all: number[] = [];
  for (let y = best.from; y <= best.to; y++) {
    sy += y * counts[y]!;
    for (const x of xs[y]!) {
      sx += x;
      all.push(x);
    }
  }
  all.sort((a, b) => a - b);
  const span = all[Math.floor(all.length * 0.98)]! - all[Math.floor(all.length * 0.02)]!;
  return { x: sx / best.total, y: sy / best.total, width: span };
}
