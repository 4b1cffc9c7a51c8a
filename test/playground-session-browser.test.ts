import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/avatar-media.js';
import { CHROMIUM, launchWithMic, speechWav } from './helpers/browser.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 17, what a session from the playground (/_emulator/ui) shows beyond the must-show
 * test (playground-browser.test.ts), in headless Debian chromium: a tool firing from a typed
 * turn (calling, the picture, the spoken follow-up), a custom photo avatar made through the
 * public API, and a greeting cut by barge-in shown as what was actually heard.
 */
describe.skipIf(!existsSync(CHROMIUM))('a playground session in headless chromium', () => {
  const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });
  let chrome: Awaited<ReturnType<typeof launchWithMic>>;
  beforeAll(async () => {
    chrome = await launchWithMic(await speechWav('Hello.', 0, 1_000));
  });
  afterAll(async () => {
    await chrome?.close();
  });

  async function open(): Promise<{ page: Page; problems: string[] }> {
    const page = await chrome.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${h.baseUrl}/_emulator/ui`);
    await page.waitForSelector('#avatar option[value="persona:ava"]', { state: 'attached' });
    return { page, problems };
  }
  /** A photo avatar made through the public API (a version, its face uploaded), and the page listing it. */
  async function photoAvatarPage(name: string, version: Record<string, string>) {
    const a = await h.api('/api/v1/avatars', { body: { name } });
    expect(a.status).toBe(201);
    const v = await h.api(`/api/v1/avatars/${a.body.id}/versions`, { body: version });
    expect(v.status).toBe(201);
    const up = await h.api(v.body.upload_url, { raw: new Uint8Array(png()), type: 'image/png' });
    expect(up.status).toBeLessThan(300);
    const { page, problems } = await open();
    await page.waitForSelector(`#avatar option[value="avatar:${a.body.id}"]`, {
      state: 'attached',
    });
    return { id: a.body.id as string, page, problems };
  }
  async function start(page: Page): Promise<string> {
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForSelector('#send:not([disabled])', { timeout: 20_000 });
    return page.evaluate(() => document.body.dataset.sessionId!);
  }
  async function say(page: Page, text: string): Promise<void> {
    await page.getByLabel('Say something').fill(text);
    await page.keyboard.press('Enter');
  }
  async function release(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Release' }).click();
    await page.waitForFunction(
      () => document.getElementById('state-badge')!.textContent!.startsWith('ended'),
      undefined,
      { timeout: 10_000 },
    );
  }

  it('a tool fires from a typed turn: calling, the picture, and the spoken follow-up', async () => {
    const ws = h.emu.keys.workspaceId;
    const on = await h.api(`/api/v1/workspaces/${ws}/builtin-servers/svc.image`, {
      method: 'PUT',
      body: { enabled: true },
    });
    expect(on.status).toBe(200);
    const { page, problems } = await open();
    await page.selectOption('#avatar', 'persona:ava');
    await page.getByLabel('Tools').selectOption({ label: 'svc.image (Default workspace)' });
    await start(page);

    // docs/tools.md: "draw a picture of X" fires generate_image with { prompt: X }.
    await say(page, 'Please draw a picture of a lighthouse at night.');
    const calling = page.locator('#tools li[data-kind="calling"]');
    await calling.waitFor({ timeout: 20_000 });
    expect(await calling.innerText()).toMatch(/calling.*generate_image/s);
    const img = page.locator('#tools li[data-kind="image"] img');
    await img.waitFor({ timeout: 20_000 });
    expect(await img.getAttribute('alt')).toBe('a lighthouse at night');
    // The picture itself loads from the box (a PNG the page can draw).
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), {
        timeout: 10_000,
      })
      .toBe(384);
    // The avatar says it: a turn with no user words, marked as the tool's follow-up.
    const followUp = page.locator('#transcript li[data-kind="follow-up"]', {
      hasText: 'picture',
    });
    await followUp.waitFor({ timeout: 30_000 });
    expect(await followUp.innerText()).toMatch(
      /^Avatar:\s*Here is the picture: a lighthouse at night\./,
    );
    await release(page);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('a face whose fetch failed shows when picked again; the Talk tab reload fetches faces anew', async () => {
    const { id, page, problems } = await photoAvatarPage('Robin', {
      system_prompt: 'You are Robin.',
    });
    // The face's first fetch fails (a network blip): no poster.
    await page.route('**/upload', (r) => r.abort());
    const failed = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/upload'));
    await page.selectOption('#avatar', `avatar:${id}`);
    await failed;
    expect(await page.evaluate(() => document.querySelector('video')!.poster)).toBe('');
    await page.unroute('**/upload');
    const poster = () => page.evaluate(() => document.querySelector('video')!.poster);
    // Picked again: the failure was not kept, the face is fetched again and shows.
    await page.selectOption('#avatar', 'persona:ava');
    await page.selectOption('#avatar', `avatar:${id}`);
    await expect.poll(poster, { timeout: 10_000 }).toMatch(/^blob:/);
    const first = await poster();
    // Back to the Talk tab: the list reloads, the kept face is let go and fetched anew.
    await page.click('#tab-state');
    await page.click('#tab-talk');
    await expect.poll(poster, { timeout: 10_000 }).not.toBe(first);
    expect(await poster()).toMatch(/^blob:/);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('a custom photo avatar made through the public API plays and answers', async () => {
    const { id, page, problems } = await photoAvatarPage('Casey', {
      system_prompt: 'You are Casey, a cheerful guide. Keep answers short.',
      backstory: 'I am Casey. I live in Lisbon and I guide walking tours of the old town.',
    });
    await page.selectOption('#avatar', `avatar:${id}`);
    // Before the session, the video box shows the avatar's uploaded face.
    await expect
      .poll(() => page.evaluate(() => document.querySelector('video')!.poster), {
        timeout: 10_000,
      })
      .toMatch(/^blob:/);
    await start(page);
    // The video plays the photo avatar (its time advances, it has a picture).
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 1, undefined, {
      timeout: 20_000,
    });
    expect(await page.evaluate(() => document.querySelector('video')!.videoWidth)).toBe(352);
    await say(page, 'Where do you live?');
    const answer = page.locator('#transcript li[data-kind="user"] + li');
    await answer.waitFor({ timeout: 20_000 });
    expect(await page.locator('#transcript li[data-kind="user"]').innerText()).toMatch(
      /^You:\s*Where do you live\?/,
    );
    expect(await answer.innerText()).toMatch(/^Avatar:.*Lisbon/s);
    await release(page);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  for (const protocol of ['1', '2'] as const) {
    it(`v${protocol}: a greeting cut by barge-in shows what was heard, not the whole greeting`, async () => {
      const { page, problems } = await open();
      await page.selectOption('#avatar', 'persona:ava');
      await page.selectOption('#protocol', protocol);
      const sessionId = await start(page);
      const greeting = page.locator('#transcript li[data-kind="greeting"]');
      await greeting.waitFor({ timeout: 20_000 });
      const whole = (await greeting.innerText()).replace(/^Avatar:\s*/, '');
      // Let the viewer hear a word or two of it, then barge in with a typed turn.
      await page.waitForFunction(
        () => document.getElementById('state-badge')!.textContent === 'speaking',
        undefined,
        { timeout: 20_000 },
      );
      const t0 = await page.evaluate(() => document.querySelector('video')!.currentTime);
      await page.waitForFunction(
        (t) => document.querySelector('video')!.currentTime > t + 1.2,
        t0,
        { timeout: 20_000 },
      );
      await say(page, 'Tell me about yourself.');

      // The stored greeting is what was said (the edge's `said`); the page shows the same.
      let said = '';
      await expect
        .poll(
          async () => {
            // The page's key (not workspace-bound) minted it.
            const t = await h.api(`/api/v1/sessions/${sessionId}/transcript`, {
              key: h.emu.keys.dashboardKey,
            });
            // The greeting is stored once it is known what of it was said (after the typed turn).
            const turns = (t.body?.turns ?? []) as { user_text: string; reply_text: string }[];
            said = turns.find((x) => x.user_text === '')?.reply_text ?? '';
            return said;
          },
          { timeout: 20_000 },
        )
        .not.toBe('');
      expect(said.length).toBeLessThan(whole.length);
      expect(whole.startsWith(said.replace(/[.,!?]$/, ''))).toBe(true);
      await expect
        .poll(() => greeting.innerText(), { timeout: 10_000 })
        .toMatch(
          new RegExp(`^Avatar:\\s*${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(cut off\\)$`),
        );
      expect(await greeting.getAttribute('data-cut')).toBe('true');
      // No second line repeats the cut greeting.
      const texts = await page.locator('#transcript li').allInnerTexts();
      expect(texts.filter((t) => t.includes(said))).toHaveLength(1);
      await release(page);
      expect(problems).toEqual([]);
      await page.close();
    }, 90_000);
  }
});
