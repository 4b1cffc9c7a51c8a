/**
 * The mouth on an uploaded photo (issue 8 item 5): findMouth finds the lips, and a talking
 * frame opens the mouth there. The project's own persona faces (fixtures/personas/<name>/
 * face.png, uploaded as photos by speak and custom avatars) decoded at the photo frame size
 * 352x480 all have closed lips spanning x 142..209 and y 257..269, the lip line (darkest
 * row) at y 263 (measured once by reading pixels and viewing crops).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PhotoRenderer, decodePhoto, findMouth } from '../src/media/photo.js';

const LIPS = { x: 175.5, y: 263 };
const face = (name: string) =>
  readFileSync(join(__dirname, '..', 'fixtures', 'personas', name, 'face.png'));

describe('the mouth on a persona photo', () => {
  for (const name of ['ava', 'leo', 'mei', 'sam']) {
    it(`${name}: finds the lips, and a talking frame opens the mouth at them, not below`, async () => {
      const rgb = await decodePhoto(face(name));
      const m = findMouth(rgb, 352, 480);
      expect(Math.abs(m.x - LIPS.x)).toBeLessThanOrEqual(4);
      expect(Math.abs(m.y - LIPS.y)).toBeLessThanOrEqual(4);
      const r = new PhotoRenderer(rgb);
      const still = r.render({ eyes: 1, mouth: 0, sway: 0 });
      const talking = r.render({ eyes: 1, mouth: 0.8, sway: 0 });
      // The dark opening (pixels the talking frame turned dark) sits on the lips, within
      // their rows 257..269 plus the jaw drop; nothing above the lips changes.
      const dark: number[] = [];
      let firstChanged = 480;
      for (let y = 0; y < 480; y++) {
        for (let x = 0; x < 352; x++) {
          const i = (y * 352 + x) * 3;
          const diff =
            Math.abs(talking[i]! - still[i]!) +
            Math.abs(talking[i + 1]! - still[i + 1]!) +
            Math.abs(talking[i + 2]! - still[i + 2]!);
          if (diff > 30) firstChanged = Math.min(firstChanged, y);
          // (Centre columns: at the face's sides the jaw drop moves the hair line, not the mouth.)
          if (
            diff > 30 &&
            Math.abs(x - LIPS.x) < 40 &&
            talking[i]! + talking[i + 1]! + talking[i + 2]! < 160
          )
            dark.push(y);
        }
      }
      expect(dark.length).toBeGreaterThan(100);
      expect(firstChanged).toBeGreaterThanOrEqual(255);
      expect(Math.min(...dark)).toBeGreaterThanOrEqual(255);
      expect(Math.max(...dark)).toBeLessThanOrEqual(285);
    });
  }
});
