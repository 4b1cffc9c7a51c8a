import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { faceFromPhoto, faceFromStyle, type FaceSource } from '../src/media/face-source.js';
import type { PhotoRenderer } from '../src/media/photo.js';
import type { IdleLoop } from '../src/media/idle-loop.js';
import { loadIdleLoop } from '../src/media/idle-loop.js';
import { createSessionStream, type SessionStream } from '../src/media/session-stream.js';
import { encoderStats } from '../src/media/encoder.js';
import { FliteVoice } from '../src/models/voice/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MSE_PAGE } from './helpers/mse-page.js';

/**
 * issue 8 must-show: the session stream plays in headless Debian chromium through
 * MediaSource with the advertised mime; currentTime advances, the mouth moves while the
 * avatar talks (and not while it listens), and the audio track decodes. Real clock: the
 * browser plays in real time. The edge repeats this over its real /mse socket.
 */
const CHROMIUM = '/usr/bin/chromium';
const ctx = { fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0];
interface Case {
  face: FaceSource;
  idle: IdleLoop | null;
  mouth: readonly [number, number, number, number];
}
const cases: Record<string, () => Promise<Case>> = {
  // A persona with its shipped idle loop; the mouth box from src/media/face.ts at 352x480.
  persona: async () => ({
    face: faceFromStyle(personaStyle(ctx, 'ava')!),
    idle: loadIdleLoop(readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'idle.mp4'))),
    mouth: [146, 246, 60, 44],
  }),
  // An uploaded photo whose idle loop is not built yet (the still loop plays).
  photo: async () => {
    const face = await faceFromPhoto(
      readFileSync(join(FIXTURES_DIR, 'personas', 'leo', 'face.png')),
    );
    const m = (face.frames as PhotoRenderer).mouth;
    const w = Math.round(m.faceWidth * 0.3);
    return {
      face,
      idle: null,
      mouth: [Math.round(m.x - w / 2), Math.round(m.y), w, Math.round(m.faceWidth * 0.12)],
    };
  },
};

describe.skipIf(!existsSync(CHROMIUM))('session stream in headless chromium (MediaSource)', () => {
  let server: Server;
  let browser: Browser;
  let stream: SessionStream | null = null;
  let current: Case;
  let url = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(MSE_PAGE);
    });
    const wss = new WebSocketServer({ server, path: '/stream' });
    wss.on('connection', (ws) => {
      const s = createSessionStream({ face: current.face, idle: current.idle });
      stream = s;
      ws.on('close', () => s.close());
      s.ready().then(
        () => {
          ws.send(JSON.stringify({ mime: s.mime }));
          ws.send(s.initSegment);
          s.on('fragment', (buf) => ws.send(buf));
        },
        (err: unknown) => ws.close(1011, String(err).slice(0, 120)),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  afterAll(async () => {
    stream?.close();
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  it.each(Object.keys(cases))(
    '%s: plays idle, then a lip-synced reply with audio, on one timeline',
    async (name) => {
      current = await cases[name]!();
      const MOUTH = current.mouth;
      const page = await browser.newPage();
      await page.goto(url);
      type Probe = {
        t: number;
        region: number;
        frames: number;
        dropped: number;
        audioBytes: number;
        ranges: number;
      };
      const probe = () =>
        page.evaluate(
          (m) => (window as unknown as { probe(...a: number[]): Probe }).probe(...m),
          [...MOUTH],
        );
      await page.waitForFunction(
        () => (document.getElementById('v') as HTMLVideoElement).currentTime > 0.5,
        undefined,
        { timeout: 15_000 },
      );
      expect(await page.evaluate(() => (window as unknown as { mime: string }).mime)).toBe(
        stream!.mime,
      );
      expect(
        await page.evaluate(() => (window as unknown as { supported: boolean }).supported),
      ).toBe(true);

      const speech = await new FliteVoice().synthesize(
        'Hello there! I am Ava, and I am talking to you right now, moving my mouth.',
      );
      // Listening: the mouth stays put.
      const listening: Probe[] = [];
      for (let i = 0; i < 10; i++) {
        listening.push(await probe());
        await page.waitForTimeout(100);
      }
      const clips = encoderStats.clips;
      const reply = stream!.speak(speech);
      const talking: Probe[] = [];
      const t0 = (await probe()).t;
      while (talking.length < 80) {
        const p = await probe();
        // Sample only what plays inside the spoken part (the reply starts within ~0.6 s).
        if (p.t > t0 + 0.7 && p.t < t0 + speech.durationMs / 1000) talking.push(p);
        if (p.t > t0 + speech.durationMs / 1000) break;
        await page.waitForTimeout(50);
      }
      const done = await reply.done;
      expect(done).toEqual({ playedMs: speech.durationMs, interrupted: false });

      const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
      if (process.env.DEBUG_MSE) console.log(JSON.stringify({ listening, talking }));
      expect(spread(listening.map((p) => p.region))).toBeLessThan(6);
      expect(talking.length).toBeGreaterThan(10);
      expect(spread(talking.map((p) => p.region))).toBeGreaterThan(15);
      // The mouth keeps moving while the reply's audio plays (not one jump): between many
      // consecutive probes that played new audio, the mouth region changed too (not all: a
      // held vowel keeps one mouth shape for a few frames; about half move, measured).
      const pairs = talking.slice(1).map((p, i) => ({
        sound: p.audioBytes > talking[i]!.audioBytes,
        moved: Math.abs(p.region - talking[i]!.region) > 1,
      }));
      const sounding = pairs.filter((x) => x.sound);
      expect(sounding.length).toBeGreaterThan(8);
      const moved = sounding.filter((x) => x.moved).length;
      expect(moved).toBeGreaterThan(4);
      expect(moved).toBeGreaterThanOrEqual(sounding.length * 0.4);
      // The talking pictures were spliced from the face's pre-encoded mouth shapes: no video encode ran.
      expect(encoderStats.clips).toBe(clips);

      // No freeze across either join (idle -> reply -> idle): a second after the reply, video
      // frames are still presented at the stream's 25 fps as currentTime advances. (Joins that
      // left holes in the video once froze it here: docs/media.md "Clip joins".)
      const after = await probe();
      await page.waitForFunction(
        (t) => (document.getElementById('v') as HTMLVideoElement).currentTime > t + 1,
        after.t,
        { timeout: 10_000 },
      );
      const end = await probe();
      expect(end.t).toBeGreaterThan(listening[0]!.t + speech.durationMs / 1000);
      expect(end.frames).toBeGreaterThan(100);
      const fps = (a: Probe, b: Probe) => (b.frames - a.frames) / (b.t - a.t);
      expect(fps(listening[0]!, end)).toBeGreaterThan(20);
      expect(fps(after, end)).toBeGreaterThan(20);
      // Speech decodes into far more audio bytes than the silence of the same length before it.
      const rate = (a: Probe, b: Probe) => (b.audioBytes - a.audioBytes) / (b.t - a.t);
      expect(rate(listening[0]!, listening.at(-1)!)).toBeGreaterThan(0);
      expect(rate(talking[0]!, talking.at(-1)!)).toBeGreaterThan(
        5 * rate(listening[0]!, listening.at(-1)!),
      );
      expect(end.ranges).toBe(1); // one continuous buffered range: no timeline gap
      expect(await page.evaluate(() => (window as unknown as { log: string[] }).log)).toEqual([]);
      await page.close();
      stream?.close();
    },
    60_000,
  );
});
