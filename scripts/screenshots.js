// `npm run screenshots`: the playground at 1280x800 and 390x844 (a phone), its Talk view
// with a live session that has answered a typed turn, and its State view, as PNGs in
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
    await page.waitForSelector('#avatar option', { state: 'attached' });
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.waitForSelector('#send:not([disabled])', { timeout: 20_000 });
    await page.getByLabel('Say something').fill('Tell me about yourself.');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('#transcript li[data-kind="reply"]').length > 0,
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForTimeout(1_500);
    await page.evaluate(() => {
      document.activeElement.blur();
      window.scrollTo(0, 0);
    });
    await page.screenshot({ path: `${out}playground-talk-${name}.png` });
    await page.getByRole('tab', { name: 'State' }).click();
    await page.waitForSelector('#state-body .card');
    await page.screenshot({ path: `${out}playground-state-${name}.png` });
    await page.close();
    console.log(
      `screenshots/playground-{talk,state}-${name}.png (${viewport.width}x${viewport.height})`,
    );
  }
} finally {
  await browser.close();
  await emu.stop();
}
