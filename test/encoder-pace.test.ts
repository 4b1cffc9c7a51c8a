import { describe, expect, it } from 'vitest';
import { encodeClip, framesFor, MEDIA_FPS, SAMPLES_PER_FRAME } from '../src/media/encoder.js';
import { FragmentSplitter, type Fragment, type TrackInfo } from '../src/media/fmp4.js';

/**
 * A live talking segment is fed to its encoder no faster than its pace allows (the session
 * stream holds it ENCODE_AHEAD_MS ahead of playback), so a busy box spends CPU on media as
 * it comes due; once released, the clip completes with every frame.
 */
describe('encoder pacing', () => {
  it('feeds nothing past a held point, then finishes the whole clip when released', async () => {
    const width = 64;
    const height = 48;
    const frames = framesFor(1600);
    const fed: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reachedHold!: () => void;
    const atHold = new Promise<void>((r) => (reachedHold = r));
    let holding = 0;
    const rgb = Buffer.alloc(width * height * 3);
    let tracks: TrackInfo[] = [];
    const fragments: Fragment[] = [];
    const splitter = new FragmentSplitter(
      (_init, t) => (tracks = t),
      (f) => fragments.push(f),
    );
    const done = encodeClip({
      width,
      height,
      frames,
      frame: (i) => {
        fed.push(i);
        return rgb.fill(i * 3);
      },
      audio: new Int16Array(frames * SAMPLES_PER_FRAME),
      onData: (d) => splitter.push(d),
      // Called for the video and the audio feed alike: both hold at 800 ms.
      pace: (ms) => {
        if (ms < 800) return;
        if (++holding === 2) reachedHold();
        return held;
      },
    });
    await atHold;
    // Held at 800 ms: frames 0..19 were rendered and fed, not one more.
    const before = fed.length;
    expect(before).toBe((800 * MEDIA_FPS) / 1000);
    release();
    await done;
    expect(fed).toEqual(Array.from({ length: frames }, (_, i) => i));
    const lengthMs = (kind: string) => {
      const track = tracks.find((t) => t.kind === kind)!;
      return fragments.reduce(
        (ms, f) =>
          ms + ((f.tracks.find((t) => t.id === track.id)?.duration ?? 0) * 1000) / track.timescale,
        0,
      );
    };
    // Every frame came out, and the audio (AAC priming included: encoder.ts) ends with it.
    expect(lengthMs('video')).toBeCloseTo((frames * 1000) / MEDIA_FPS, 3);
    expect(lengthMs('audio')).toBeCloseTo((frames * 1000) / MEDIA_FPS, 3);
  });
});
