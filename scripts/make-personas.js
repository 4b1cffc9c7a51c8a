#!/usr/bin/env node
// Regenerates the stock persona fixtures (face.png, intro-<lang>.mp4) from personas.json.
// Deterministic: the same renderer, the same frames, the same ffmpeg arguments. Run after
// `npm run build`: `npm run fixtures`.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hexToRgb } from '../dist/media/face.js';
import { renderSilentClip, renderStillPng } from '../dist/media/clips.js';
import { faceFromStyle } from '../dist/media/face-source.js';
import { renderLoopClip } from '../dist/media/idle-loop.js';
import { STOCK_IDLE_SECONDS } from '../dist/emulator/idle-media/worker.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'personas');
const { personas } = JSON.parse(await readFile(join(root, 'personas.json'), 'utf8'));

// A silent "speaking" intro: syllable-like mouth motion, different per language, with blinks.
function introState(lang) {
  const rate = lang === 'zh' ? 5.2 : 4.1;
  return (i, fps, total) => {
    const t = i / fps;
    const talking = t > 0.4 && t < total / fps - 0.6;
    const mouth = talking
      ? Math.max(0, Math.sin(2 * Math.PI * rate * t) * 0.6 + Math.sin(2 * Math.PI * 1.3 * t) * 0.25)
      : 0.02;
    const blink = Math.abs(t - 1.8) < 0.09 ? Math.abs(t - 1.8) / 0.09 : 1;
    return { mouth, eyes: blink };
  };
}

for (const p of personas) {
  const style = Object.fromEntries(
    Object.entries(p.style).map(([k, v]) => [k, k === 'hairStyle' ? v : hexToRgb(v)]),
  );
  style.accent = hexToRgb(p.accent);
  const dir = join(root, p.id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'face.png'), await renderStillPng(style));
  for (const lang of p.languages) {
    const clip = await renderSilentClip(style, { seconds: 4, state: introState(lang) });
    await writeFile(join(dir, `intro-${lang}.mp4`), clip);
  }
  // The stock idle loop: exactly what the idle-media builder would render for this persona
  // (the session stream's fMP4 idle format, src/media/idle-loop.ts).
  await writeFile(
    join(dir, 'idle.mp4'),
    await renderLoopClip(faceFromStyle(style), { seconds: STOCK_IDLE_SECONDS }),
  );
  console.log(
    `${p.id}: face.png, idle.mp4, ${p.languages.map((l) => `intro-${l}.mp4`).join(', ')}`,
  );
}
