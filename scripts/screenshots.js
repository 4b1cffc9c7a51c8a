// `npm run screenshots`: the playground at 1280x800 and 390x844 (a phone): the page as a
// new user first sees it, its Talk view with a live session that has answered a typed turn
// and drawn a picture with the svc.image tool, and its State view, as PNGs in
// screenshots/ for a reviewer. Runs the built emulator in memory and Debian chromium
// (playwright-core; no browser download).
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startEmulator } from '../dist/emulator/start.js';

const out = new URL('../screenshots/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const emu = await startEmulator({
  port: 0,
  host: '127.0.0.1',
  inMemory: true,
  mintRatePerMinute: 0,
});
// The workspace's svc.image built-in, so the Talk view can show a tool call and its picture.
await fetch(`${emu.baseUrl}/api/v1/workspaces/${emu.keys.workspaceId}/builtin-servers/svc.image`, {
  method: 'PUT',
  headers: { authorization: `Bearer ${emu.keys.secretKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ enabled: true }),
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--autoplay-policy=no-user-gesture-required',
  ],
});
try {
  for (const { name, viewport } of [
    { name: 'desktop', viewport: { width: 1280, height: 800 } },
    { name: 'phone', viewport: { width: 390, height: 844 } },
  ]) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.goto(`${emu.baseUrl}/_emulator/ui`);
    await page.waitForSelector('#tool-server option[value$="|svc.image"]', { state: 'attached' });
    // What a new user sees first: nothing started yet.
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}playground-start-${name}.png` });
    await page.selectOption('#tool-server', { label: 'svc.image (Default workspace)' });
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForSelector('#send:not([disabled])', { timeout: 20_000 });
    await page.getByLabel('Say something').fill('Tell me about yourself.');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('#transcript li[data-kind="reply"]').length > 0,
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForFunction(
      () => document.getElementById('state-badge').textContent === 'listening',
      undefined,
      { timeout: 20_000 },
    );
    await page.getByLabel('Say something').fill('Please draw a picture of a lighthouse at night.');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#tools li[data-kind="image"] img', { timeout: 30_000 });
    await page.waitForSelector('#transcript li[data-kind="follow-up"]', { timeout: 30_000 });
    await page.waitForTimeout(1_500);
    await page.evaluate(() => {
      document.activeElement.blur();
      window.scrollTo(0, 0);
    });
    await page.screenshot({ path: `${out}playground-talk-${name}.png` });
    await page.getByRole('tab', { name: 'State' }).click();
    await page.waitForSelector('#state-body .card');
    await page.screenshot({ path: `${out}playground-state-${name}.png`, fullPage: true });
    await page.close();
    console.log(
      `screenshots/playground-{start,talk,state}-${name}.png (${viewport.width}x${viewport.height})`,
    );
  }
} finally {
  await browser.close();
  await emu.stop();
}
