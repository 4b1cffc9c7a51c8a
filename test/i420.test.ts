import { describe, expect, it } from 'vitest';
import { I420Converter } from '../src/media/i420.js';
import { faceFromStyle } from '../src/media/face-source.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { FIXTURES_DIR } from '../src/emulator/start.js';

/** The live encoder's RGB -> I420 conversion: incremental (changed rows only) equals a full conversion. */
describe('I420Converter', () => {
  it('converts only what changed, and the result equals a fresh full conversion', () => {
    const face = faceFromStyle(personaStyle({ fixturesDir: FIXTURES_DIR } as never, 'sam')!);
    const live = new I420Converter(352, 480);
    const frames = [0, 0.3, 1, 0.6, 0].map((mouth, i) =>
      Buffer.from(face.frames.render({ mouth, eyes: i === 3 ? 0 : 1 })),
    );
    for (const f of frames) {
      const incremental = Buffer.from(live.convert(f));
      expect(Buffer.compare(incremental, new I420Converter(352, 480).convert(f))).toBe(0);
    }
  });

  it('maps black, white and red to BT.601 limited-range values', () => {
    const c = new I420Converter(2, 2);
    const px = (r: number, g: number, b: number) =>
      Buffer.from([r, g, b, r, g, b, r, g, b, r, g, b]);
    expect([...c.convert(px(0, 0, 0))]).toEqual([16, 16, 16, 16, 128, 128]);
    expect([...c.convert(px(255, 255, 255))]).toEqual([235, 235, 235, 235, 128, 128]);
    const red = [...c.convert(px(255, 0, 0))];
    expect(red.slice(0, 4)).toEqual([82, 82, 82, 82]);
    expect(red[4]).toBe(90);
    expect(red[5]).toBe(240);
  });
});
