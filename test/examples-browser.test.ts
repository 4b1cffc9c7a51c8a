import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from './helpers/browser.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 17: the examples an app developer copies (examples/browser) run against the
 * emulator in the same harness: the minimal page with its Node relay (secret key on the
 * server, v1 typed turns through POST /chat of the relay), and the publishable-key page
 * minting from the browser itself (v2).
 */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe.skipIf(!existsSync(CHROMIUM) || !existsSync('dist/browser/index.js'))(
  'examples/browser in headless chromium',
  () => {
    const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
    let browser: Browser;
    let server: ChildProcess;
    let origin = '';

    beforeAll(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      const pk = await h.api('/api/v1/tokens', {
        body: { name: 'example page', kind: 'publishable', allowedOrigins: [origin] },
      });
      expect(pk.status).toBe(201);
      server = spawn(process.execPath, ['examples/browser/server.mjs'], {
        env: {
          ...process.env,
          AVATAR_BASE_URL: h.baseUrl,
          AVATAR_API_KEY: h.emu.keys.secretKey,
          AVATAR_PUBLISHABLE_KEY: pk.body.token,
          PORT: String(port),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => server.stdout!.once('data', () => resolve()));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'],
      });
    });
    afterAll(async () => {
      await browser?.close();
      server?.kill();
    });

    const logLines = (page: Page) => page.locator('#log li').allInnerTexts();
    async function talk(page: Page) {
      await page.waitForFunction(
        () => document.querySelector('video')!.currentTime > 0.5,
        undefined,
        { timeout: 20_000 },
      );
      await page.getByLabel('Say').fill('Tell me about yourself.');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => logLines(page), { timeout: 20_000 })
        .toContainEqual(expect.stringMatching(/^you: Tell me about yourself\. \/ avatar: \S+/));
    }

    for (const v2 of [false, true]) {
      it(`the minimal page with the Node relay (v${v2 ? 2 : 1}): the video plays and a typed turn is answered`, async () => {
        const page = await browser.newPage();
        await page.goto(`${origin}/`);
        if (v2) await page.getByLabel('protocol v2').check();
        await page.getByRole('button', { name: 'Start' }).click();
        await talk(page);
        await page.close();
      }, 60_000);
    }

    it('the publishable-key page mints from the browser (stock persona, registered origin) and talks', async () => {
      const page = await browser.newPage();
      await page.goto(`${origin}/publishable.html`);
      await page.getByRole('button', { name: 'Start' }).click();
      await talk(page);
      await page.close();
    }, 60_000);
  },
);
