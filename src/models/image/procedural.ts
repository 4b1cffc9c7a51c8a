import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import { convertIndexedToRgb, decode } from 'fast-png';
import { own } from '../../contract/own.js';

/**
 * The local image model (spec 4.12 images/generations and edits): procedural,
 * deterministic pictures. The prompt picks the palette (colour words it names, else
 * colours hashed from its words) and seeds a few soft shapes on a gradient; the same
 * prompt, size and index always give the same PNG.
 */
const NAMED: Record<string, [number, number, number]> = {
  red: [214, 48, 49],
  orange: [243, 135, 47],
  yellow: [246, 214, 72],
  green: [56, 161, 105],
  blue: [49, 110, 214],
  purple: [128, 70, 190],
  pink: [236, 120, 170],
  brown: [130, 86, 52],
  black: [22, 22, 28],
  white: [240, 240, 236],
  gray: [128, 128, 132],
  grey: [128, 128, 132],
  gold: [212, 175, 55],
  teal: [32, 150, 150],
  cyan: [60, 200, 220],
  sunset: [250, 120, 70],
  ocean: [30, 90, 160],
  sea: [40, 110, 170],
  sky: [120, 180, 240],
  forest: [34, 100, 52],
  night: [20, 24, 60],
  fire: [230, 80, 30],
  snow: [235, 240, 250],
  grass: [90, 170, 70],
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
  const named = words.map((w) => own(NAMED, w)).filter((c): c is [number, number, number] => !!c);
  const hashed = words.map((w) => {
    const h = createHash('sha256').update(w).digest();
    return [h[0]!, h[1]!, h[2]!] as [number, number, number];
  });
  const colours = [...named, ...hashed];
  while (colours.length < 4)
    colours.push([Math.floor(rand() * 256), Math.floor(rand() * 256), Math.floor(rand() * 256)]);
  return colours;
}

/** RGBA pixels of the procedural picture for `prompt`. */
export function renderPicture(
  prompt: string,
  width: number,
  height: number,
  index = 0,
): Uint8Array {
  const seed = createHash('sha256')
    .update(`${prompt}\u0000${width}x${height}\u0000${index}`)
    .digest();
  const rand = seededRandom(seed);
  const colours = palette(prompt, rand);
  const [top, bottom] = [colours[0]!, colours[1]!];
  const shapes = Array.from({ length: 3 + Math.floor(rand() * 5) }, (_, i) => ({
    x: rand() * width,
    y: rand() * height,
    r: (0.08 + rand() * 0.25) * Math.min(width, height),
    c: colours[(i + 2) % colours.length]!,
  }));
  // Gradient rows first, then each shape over its bounding box only; the soft edge
  // 0.85 * (1 - d^2) needs no square root.
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const t = height > 1 ? y / (height - 1) : 0;
    const r = top[0] + (bottom[0] - top[0]) * t;
    const g = top[1] + (bottom[1] - top[1]) * t;
    const b = top[2] + (bottom[2] - top[2]) * t;
    for (let o = y * width * 4, end = o + width * 4; o < end; o += 4) {
      px[o] = r;
      px[o + 1] = g;
      px[o + 2] = b;
      px[o + 3] = 255;
    }
  }
  for (const s of shapes) {
    const x0 = Math.max(0, Math.floor(s.x - s.r));
    const x1 = Math.min(width - 1, Math.ceil(s.x + s.r));
    const y0 = Math.max(0, Math.floor(s.y - s.r));
    const y1 = Math.min(height - 1, Math.ceil(s.y + s.r));
    const inv = 1 / (s.r * s.r);
    for (let y = y0; y <= y1; y++) {
      const dy2 = (y - s.y) * (y - s.y);
      for (let x = x0; x <= x1; x++) {
        const d2 = ((x - s.x) * (x - s.x) + dy2) * inv;
        if (d2 >= 1) continue;
        const a = 0.85 * (1 - d2);
        const o = (y * width + x) * 4;
        px[o] = px[o]! + (s.c[0] - px[o]!) * a;
        px[o + 1] = px[o + 1]! + (s.c[1] - px[o + 1]!) * a;
        px[o + 2] = px[o + 2]! + (s.c[2] - px[o + 2]!) * a;
      }
    }
  }
  return px;
}

export function generatePng(
  prompt: string,
  width: number,
  height: number,
  index = 0,
): Promise<Buffer> {
  return encodeRgbaPng(width, height, renderPicture(prompt, width, height, index));
}

const deflateAsync = promisify(deflate);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * 8-bit RGBA PNG (PNG spec: IHDR, one IDAT, IEND; filter 0 on every row). Compression runs
 * in Node's zlib thread pool, so a large picture does not hold the event loop (the edge may
 * be pacing live media in this process); fast-png, used for decoding, compresses in JS.
 */
export async function encodeRgbaPng(
  width: number,
  height: number,
  rgba: Uint8Array,
): Promise<Buffer> {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++)
    raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const idat = await deflateAsync(raw, { level: 6 });
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

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
  const scale =
    img.depth === 16 ? 1 / 257 : img.depth < 8 && !img.palette ? 255 / ((1 << img.depth) - 1) : 1;
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
export function editPng(
  image: Rgba,
  mask: Rgba | null,
  prompt: string,
  index = 0,
): Promise<Buffer> {
  const layer = renderPicture(prompt, image.width, image.height, index);
  const out = new Uint8Array(image.data);
  for (let i = 0; i < image.width * image.height; i++) {
    const a = mask ? (mask.data[i * 4 + 3] === 0 ? 1 : 0) : 0.5;
    if (a === 0) continue;
    for (let k = 0; k < 3; k++)
      out[i * 4 + k] = out[i * 4 + k]! + (layer[i * 4 + k]! - out[i * 4 + k]!) * a;
    if (mask) out[i * 4 + 3] = 255;
  }
  return encodeRgbaPng(image.width, image.height, out);
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
