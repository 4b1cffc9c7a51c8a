import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  launchWithMic,
  speechWav,
  spread,
  startProbing,
  watch,
} from './helpers/browser.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 17 must-show: the emulator's playground (/_emulator/ui) in headless Debian chromium
 * with a fake microphone, over v1 and over v2 (the same browser client): pick a persona,
 * talk through the mic (a partial, then the recognised question as a turn), the video plays
 * and the mouth moves while the reply plays, a typed turn is answered, the mic barges in on
 * a reply, and release frees the seat (the state view shows the session ended).
 */
const QUESTION =
  'Hello there. I would like to know where you live, what you do all day, and which places you like to visit on the weekend with your friends and your family.';

describe.skipIf(!existsSync(CHROMIUM))('the playground in headless chromium', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
  let chrome: Awaited<ReturnType<typeof launchWithMic>>;

  beforeAll(async () => {
    // Chromium plays the file from its start at each getUserMedia, and loops it: the question,
    // then silence long enough that it does not come back during the reply on a loaded
    // machine (recognising 10 s of speech can take several seconds there).
    chrome = await launchWithMic(await speechWav(QUESTION, 500, 20_000));
  });
  afterAll(async () => {
    await chrome?.close();
  });

  const lines = (page: Page) => page.locator('#transcript li').allInnerTexts();

  for (const protocol of ['1', '2'] as const) {
    it(`v${protocol}: mic turn, video and mouth, typed turn, barge-in, release`, async () => {
      const page = await chrome.browser.newPage({ viewport: { width: 1280, height: 800 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${h.baseUrl}/_emulator/ui`);
      await page.waitForSelector('#avatar option[value="persona:ava"]', { state: 'attached' });
      await page.selectOption('#avatar', 'persona:ava');
      await page.selectOption('#protocol', protocol);
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForSelector('#mic:not([disabled])', { timeout: 20_000 });
      const sessionId = await page.evaluate(() => document.body.dataset.sessionId!);

      // Talk through the fake mic: a partial while speaking, then the recognised question.
      await page.getByRole('button', { name: 'Microphone off' }).click();
      // (Partials come while the user still speaks, at most every 2 s: a long question.)
      await page.waitForFunction(
        () => document.getElementById('partial')!.textContent!.startsWith('You (speaking)'),
        undefined,
        { timeout: 45_000 },
      );
      // From here the page samples its video: the whole reply is in the samples.
      const probing = await startProbing(page);
      await page.waitForSelector('#transcript li[data-kind="user"]', { timeout: 60_000 }); // pocketsphinx is slow on a loaded machine
      expect(await page.locator('#transcript li[data-kind="user"]').first().innerText()).toMatch(
        /^You:\s*hello there i would like to know where you/i,
      );

      // The reply plays: time advances and the mouth moves; back to listening, the mouth is still.
      await page.getByRole('button', { name: 'Microphone on' }).click();
      await page.waitForFunction(
        () => document.getElementById('state-badge')!.textContent === 'listening',
        undefined,
        { timeout: 30_000 },
      );
      await page.waitForTimeout(2_000); // the player plays a little behind the live edge
      const reply = await probing.stop();
      const listening = await watch(page, 1_000);
      expect(reply.at(-1)!.t).toBeGreaterThan(reply[0]!.t + 1.5);
      expect(listening.at(-1)!.t).toBeGreaterThan(listening[0]!.t + 0.5);
      expect(spread(reply.map((p) => p.mouth))).toBeGreaterThan(15);
      expect(spread(listening.map((p) => p.mouth))).toBeLessThan(6);

      // A typed turn is answered (v1 through the page's relay, v2 on its socket).
      const before = (await lines(page)).length;
      await page.getByLabel('Say something').fill('Tell me about yourself.');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        (n) => document.querySelectorAll('#transcript li').length >= n + 2,
        before,
        { timeout: 20_000 },
      );
      const typed = (await lines(page)).slice(before);
      expect(typed[0]).toMatch(/^You:\s*Tell me about yourself\./);
      expect(typed[1]).toMatch(/^Avatar:\s*\S+/);

      // Barge-in by the mic: turned on while a reply plays, the question (from the file's
      // start, 0.5 s in) cuts it.
      await page.waitForFunction(
        () => document.getElementById('state-badge')!.textContent === 'speaking',
        undefined,
        { timeout: 20_000 },
      );
      const cutsBefore = await page.locator('#transcript li[data-cut]').count();
      await page.getByRole('button', { name: 'Microphone off' }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('#transcript li[data-cut]').length > n,
        cutsBefore,
        { timeout: 20_000 },
      );

      // Release frees the seat: the state view lists the session as ended.
      await page.getByRole('button', { name: 'Release' }).click();
      await page.waitForFunction(
        () => document.getElementById('state-badge')!.textContent!.startsWith('ended'),
        undefined,
        { timeout: 10_000 },
      );
      await page.getByRole('tab', { name: 'State' }).click();
      const row = page.locator('#state-body tr', { hasText: sessionId });
      await expect
        .poll(() => row.first().innerText(), { timeout: 10_000 })
        .toMatch(/\bended\b.*\breleased\b/s);
      expect(problems).toEqual([]);
      await page.close();
    }, 240_000);
  }
});

describe.skipIf(!existsSync(CHROMIUM))('the playground when every seat is taken', () => {
  const h = useEmulator({ boxes: 1, seats: 1, mintRatePerMinute: 0 });
  let chrome: Awaited<ReturnType<typeof launchWithMic>>;
  beforeAll(async () => {
    chrome = await launchWithMic(await speechWav('Hello.', 0, 1_000));
  });
  afterAll(async () => {
    await chrome?.close();
  });

  it('shows the queue with position and ETA, then seats the session once the seat frees', async () => {
    const held = (await h.api('/api/v1/sessions', { body: { persona: 'leo' } })).body;
    expect(held.status).toBe('ready');
    const page = await chrome.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${h.baseUrl}/_emulator/ui`);
    await page.waitForSelector('#avatar option[value="persona:ava"]', { state: 'attached' });
    await page.getByRole('button', { name: 'Start session' }).click();
    const queue = page.getByRole('status').filter({ hasText: 'queued' });
    await expect
      .poll(() => queue.innerText(), { timeout: 10_000 })
      .toMatch(/queued at position 1, about \d+ s/);
    await h.api(`/api/v1/sessions/${held.session_id}/release`, {
      body: { seat_token: held.seat_token },
    });
    await page.waitForSelector('#send:not([disabled])', { timeout: 30_000 });
    expect(await page.locator('#queue').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Release' }).click();
    await page.waitForFunction(
      () => document.getElementById('state-badge')!.textContent!.startsWith('ended'),
      undefined,
      { timeout: 10_000 },
    );
    await page.close();
  }, 60_000);

  it('catches up with the live edge after a stall instead of playing ever later', async () => {
    const page = await chrome.browser.newPage();
    await page.goto(`${h.baseUrl}/_emulator/ui`);
    await page.waitForSelector('#avatar option[value="persona:ava"]', { state: 'attached' });
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 1, undefined, {
      timeout: 20_000,
    });
    const lag = () =>
      page.evaluate(() => {
        const v = document.querySelector('video')!;
        return v.buffered.end(v.buffered.length - 1) - v.currentTime;
      });
    // The page's main thread stalls for 4 s (a busy tab): no appends, playback runs dry.
    await page.evaluate(() => {
      const until = performance.now() + 4_000;
      while (performance.now() < until);
    });
    // Once the stalled messages are appended the buffer ends 4 s ahead; the player jumps.
    const lags: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.waitForTimeout(500);
      lags.push(await lag());
    }
    expect(
      lags.slice(2).every((l) => l < 1.5),
      `lag after the stall: ${lags.join(', ')}`,
    ).toBe(true);
    await page.getByRole('button', { name: 'Release' }).click();
    await page.close();
  }, 60_000);
});
