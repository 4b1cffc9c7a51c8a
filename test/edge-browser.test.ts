import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSock, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { MSE_PAGE } from './helpers/mse-page.js';

/**
 * Issue 8 must-show: a session's real /mse stream (token on the URL, as a browser does)
 * plays in headless Debian chromium through MediaSource with the advertised mime:
 * currentTime advances, the decoded video changes while the avatar talks (the mouth), and
 * the audio track decodes. The page is media's loopback MSE player pointed at the box.
 */
const CHROMIUM = '/usr/bin/chromium';
const MOUTH = [146, 246, 60, 44] as const; // ava's mouth box at 352x480 (src/media/face.ts)

describe.skipIf(!existsSync(CHROMIUM))('a live session in headless chromium', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
  let browser: Browser;
  let server: Server;
  let page = '';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  it('plays /mse with the advertised mime; time advances; the mouth moves and audio decodes while the avatar replies', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { greeting_enabled: false } },
      })
    ).body;
    page = MSE_PAGE.replace(
      "'ws://' + location.host + '/stream'",
      JSON.stringify(wsUrl(m.connect_url, '/mse', m.session_token)),
    );
    // The player connects first, so it gets the timeline from its start (docs/edge.md: late joiners seek).
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await tab.waitForFunction(
      () => typeof (window as unknown as { mime?: string }).mime === 'string',
      undefined,
      { timeout: 20_000 },
    );
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    type Probe = { t: number; region: number; frames: number; audioBytes: number; ranges: number };
    const probe = () =>
      tab.evaluate(
        (r) => (window as unknown as { probe(...a: number[]): Probe }).probe(...r),
        [...MOUTH],
      );
    await tab.waitForFunction(
      () => (document.getElementById('v') as HTMLVideoElement).currentTime > 0.5,
      undefined,
      { timeout: 20_000 },
    );
    const mime = await tab.evaluate(() => (window as unknown as { mime: string }).mime);
    expect(mime).toMatch(/^video\/mp4; codecs="avc1\./);
    expect(await tab.evaluate(() => (window as unknown as { supported: boolean }).supported)).toBe(
      true,
    );

    const listening: Probe[] = [];
    for (let i = 0; i < 10; i++) {
      listening.push(await probe());
      await tab.waitForTimeout(100);
    }
    await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Tell me about yourself.' }),
    });
    await events.next((x) => x.type === 'status' && x.state === 'speaking', 20_000);
    const talking: Probe[] = [];
    for (let i = 0; i < 40; i++) {
      talking.push(await probe());
      await tab.waitForTimeout(100);
    }
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    expect(spread(listening.map((p) => p.region))).toBeLessThan(6);
    expect(spread(talking.map((p) => p.region))).toBeGreaterThan(15);
    const end = talking.at(-1)!;
    expect(end.t).toBeGreaterThan(listening[0]!.t + 3);
    expect(end.frames).toBeGreaterThan(listening[0]!.frames + 50);
    const rate = (a: Probe, b: Probe) => (b.audioBytes - a.audioBytes) / (b.t - a.t);
    expect(rate(listening[0]!, listening.at(-1)!)).toBeGreaterThan(0);
    expect(rate(talking[0]!, end)).toBeGreaterThan(2 * rate(listening[0]!, listening.at(-1)!));
    expect(end.ranges).toBe(1);
    expect(await tab.evaluate(() => (window as unknown as { log: string[] }).log)).toEqual([]);
    await tab.close();
    events.close();
  }, 90_000);
});
