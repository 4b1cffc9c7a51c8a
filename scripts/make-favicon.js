#!/usr/bin/env node
// Writes fixtures/favicon.ico, the icon the emulator serves at /favicon.ico (the playground
// names it; a browser asks for it on every page): ava's face (fixtures/personas/ava/face.png)
// cropped to her head and box-averaged down to 32x32, one PNG image in an ICO container.
// Deterministic. `node scripts/make-favicon.js` after `npm run fixtures` changes her face.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode } from 'fast-png';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const face = decode(await readFile(join(fixtures, 'personas', 'ava', 'face.png')));
const channels = face.channels;
const [x0, y0, side, size] = [48, 60, 256, 32]; // the head, hair to chin, in a 352x480 face
const step = side / size;
const out = new Uint8Array(size * size * 4);
for (let y = 0; y < size; y++)
  for (let x = 0; x < size; x++) {
    const sum = [0, 0, 0];
    for (let dy = 0; dy < step; dy++)
      for (let dx = 0; dx < step; dx++) {
        const i = ((y0 + y * step + dy) * face.width + x0 + x * step + dx) * channels;
        for (let c = 0; c < 3; c++) sum[c] += face.data[i + c];
      }
    const o = (y * size + x) * 4;
    for (let c = 0; c < 3; c++) out[o + c] = Math.round(sum[c] / (step * step));
    out[o + 3] = 255;
  }
const png = Buffer.from(encode({ width: size, height: size, data: out, channels: 4, depth: 8 }));
// ICONDIR (reserved 0, type 1, one image), then its ICONDIRENTRY, then the PNG.
const head = Buffer.alloc(22);
head.writeUInt16LE(0, 0);
head.writeUInt16LE(1, 2);
head.writeUInt16LE(1, 4);
head.writeUInt8(size, 6);
head.writeUInt8(size, 7);
head.writeUInt8(0, 8); // no palette
head.writeUInt8(0, 9);
head.writeUInt16LE(1, 10); // colour planes
head.writeUInt16LE(32, 12); // bits per pixel
head.writeUInt32LE(png.length, 14);
head.writeUInt32LE(22, 18); // offset of the image
await writeFile(join(fixtures, 'favicon.ico'), Buffer.concat([head, png]));
console.log(`wrote fixtures/favicon.ico (${22 + png.length} bytes)`);
