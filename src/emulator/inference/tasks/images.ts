import { createHash } from 'node:crypto';
import { convertIndexedToRgb, decode, encode } from 'fast-png';

/**
 * The local image model (spec 4.12 images/generations and edits): procedural,
 * deterministic pictures. The prompt picks the palette (colour words it names, else
 * colours hashed from its words) and seeds a few soft shapes on a gradient; the same
 * prompt, size and index always give the same PNG.
 */
const NAMED: Record<string, [number, number, number]> = {
  red: [214, 48, 49], orange: [243, 135, 47], yellow: [246, 214, 72], green: [56, 161, 105],
  blue: [49, 110, 214], purple: [128, 70, 190], pink: [236, 120, 170], brown: [130, 86, 52],
  black: [22, 22, 28], white: [240, 240, 236], gray: [128, 128, 132], grey: [128, 128, 132],
  gold: [212, 175, 55], teal: [32, 150, 150], cyan: [60, 200, 220], sunset: [250, 120, 70],
  ocean: [30, 90, 160], sea: [40, 110, 170], sky: [120, 180, 240], forest: [34, 100, 52],
  night: [20, 24, 60], fire: [230, 80, 30], snow: [235, 240, 250], grass: [90, 170, 70],
};

function seededRandom(seed: Buffer): () => number {
  let a = seed.readUInt32LE(0);
  // mulberry32: a tiny, well-known deterministic generator.
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function palette(prompt: string, rand: () => number): [number, number, number][] {
  const words = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  const named = words.map((w) => NAMED[w]).filter((c): c is [number, number, number] => !!c);
  const hashed = words.map((w) => {
    const h = createHash('sha256').update(w).digest();
    return [h[0]!, h[1]!, h[2]!] as [number, number, number];
  });
  const colours = [...named, ...hashed];
  while (colours.length < 4) colours.push([Math.floor(rand() * 256), Math.floor(rand() * 256), Math.floor(rand() * 256)]);
  return colours;
}

/** RGBA pixels of the procedural picture for `prompt`. */
export function renderPicture(prompt: string, width: number, height: number, index = 0): Uint8Array {
  const seed = createHash('sha256').update(`${prompt}\u0000${width}x${height}\u0000${index}`).digest();
  const rand = seededRandom(seed);
  const colours = palette(prompt, rand);
  const [top, bottom] = [colours[0]!, colours[1]!];
  const shapes = Array.from({ length: 3 + Math.floor(rand() * 5) }, (_, i) => ({
    x: rand() * width,
    y: rand() * height,
    r: (0.08 + rand() * 0.25) * Math.min(width, height),
    c: colours[(i + 2) % colours.length]!,
  }));
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const t = height > 1 ? y / (height - 1) : 0;
    for (let x = 0; x < width; x++) {
      let r = top[0] + (bottom[0] - top[0]) * t;
      let g = top[1] + (bottom[1] - top[1]) * t;
      let b = top[2] + (bottom[2] - top[2]) * t;
      for (const s of shapes) {
        const d = Math.hypot(x - s.x, y - s.y) / s.r;
        if (d < 1) {
          const a = 0.85 * (1 - d * d); // soft edge
          r += (s.c[0] - r) * a;
          g += (s.c[1] - g) * a;
          b += (s.c[2] - b) * a;
        }
      }
      const o = (y * width + x) * 4;
      px[o] = r;
      px[o + 1] = g;
      px[o + 2] = b;
      px[o + 3] = 255;
    }
  }
  return px;
}

export function generatePng(prompt: string, width: number, height: number, index = 0): Buffer {
  return Buffer.from(encode({ width, height, data: renderPicture(prompt, width, height, index), channels: 4, depth: 8 }));
}

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Decode a PNG to 8-bit RGBA (any bit depth, grey, palette, alpha); null if not a PNG. */
export function decodeRgba(bytes: Uint8Array): Rgba | null {
  let img;
  try {
    img = decode(bytes);
  } catch {
    return null;
  }
  let data: ArrayLike<number> = img.data;
  let channels = img.channels;
  if (img.palette) {
    data = convertIndexedToRgb(img);
    channels = img.palette[0]?.length ?? 3;
  }
  const n = img.width * img.height;
  const out = new Uint8Array(n * 4);
  const scale = img.depth === 16 ? 1 / 257 : img.depth < 8 && !img.palette ? 255 / ((1 << img.depth) - 1) : 1;
  for (let i = 0; i < n; i++) {
    const v = (k: number) => Math.round((data[i * channels + k] ?? 0) * scale);
    const grey = channels <= 2;
    out[i * 4] = v(0);
    out[i * 4 + 1] = grey ? v(0) : v(1);
    out[i * 4 + 2] = grey ? v(0) : v(2);
    out[i * 4 + 3] = channels === 2 ? v(1) : channels === 4 ? v(3) : 255;
  }
  return { width: img.width, height: img.height, data: out };
}

/**
 * Edit: paint the prompt's picture into the image. With a mask (same size), the fully
 * transparent mask pixels are replaced (OpenAI's inpainting convention); without one, the
 * picture is blended over the whole image at half strength.
 */
export function editPng(image: Rgba, mask: Rgba | null, prompt: string, index = 0): Buffer {
  const layer = renderPicture(prompt, image.width, image.height, index);
  const out = new Uint8Array(image.data);
  for (let i = 0; i < image.width * image.height; i++) {
    const a = mask ? (mask.data[i * 4 + 3] === 0 ? 1 : 0) : 0.5;
    if (a === 0) continue;
    for (let k = 0; k < 3; k++) out[i * 4 + k] = out[i * 4 + k]! + (layer[i * 4 + k]! - out[i * 4 + k]!) * a;
    if (mask) out[i * 4 + 3] = 255;
  }
  return Buffer.from(encode({ width: image.width, height: image.height, data: out, channels: 4, depth: 8 }));
}

/** `size` as WIDTHxHEIGHT, each 64 to 2048 (ours; OpenAI lists fixed sizes per model). */
export function parseSize(size: string): { width: number; height: number } | null {
  const m = /^(\d{2,4})x(\d{2,4})$/.exec(size);
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 64 || height < 64 || width > 2048 || height > 2048) return null;
  return { width, height };
}
