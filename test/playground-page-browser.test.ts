import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './helpers/avatar-media.js';
import { CHROMIUM, CHROMIUM_FLAGS } from './helpers/browser.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 32, what a new user sees of the playground page itself (no session needed), in
 * headless Debian chromium: the State view's avatar status columns (item 6), a page load
 * with no console error (the icon, item 9), and the Talk form's buttons on one row at a
 * laptop's width (item 11).
 */
describe.skipIf(!existsSync(CHROMIUM))('the playground page in headless chromium', () => {
  const h = useEmulator({ mintRatePerMinute: 0 });
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(width: number, height = 800): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width, height } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(`${h.baseUrl}/_emulator/ui`);
    await page.waitForSelector('#avatar option[value="persona:ava"]', { state: 'attached' });
    return { page, problems };
  }

  it("State view: each avatar's status and assets_status, as GET /api/v1/avatars/{id} reports them", async () => {
    const draft = await h.api('/api/v1/avatars', { body: { name: 'Dana' } });
    expect(draft.status).toBe(201);
    const published = await h.api('/api/v1/avatars', { body: { name: 'Robin' } });
    const v = await h.api(`/api/v1/avatars/${published.body.id}/versions`, {
      body: { system_prompt: 'You are Robin.' },
    });
    expect(v.status).toBe(201);
    const up = await h.api(v.body.upload_url, { raw: new Uint8Array(png()), type: 'image/png' });
    expect(up.status).toBeLessThan(300);

    const { page, problems } = await open(1280);
    await page.getByRole('tab', { name: 'State' }).click();
    const cell = (id: string, column: string) =>
      page
        .locator('#state-body tr', { hasText: id })
        .first()
        .locator(`td[data-label="${column}"]`)
        .innerText();
    await page.locator('#state-body tr', { hasText: draft.body.id }).first().waitFor();

    const d = (await h.api(`/api/v1/avatars/${draft.body.id}`)).body;
    expect(d).toMatchObject({ status: 'draft', assets_status: 'missing' });
    expect(await cell(draft.body.id, 'status')).toBe(d.status);
    expect(await cell(draft.body.id, 'assets_status')).toBe(d.assets_status);
    expect(await cell(draft.body.id, 'versions')).toBe('');

    const p = (await h.api(`/api/v1/avatars/${published.body.id}`)).body;
    expect(p.status).toBe('active');
    expect(await cell(published.body.id, 'status')).toBe('active');
    // Idle media is built in the background: building, then ready (never blank).
    expect(await cell(published.body.id, 'assets_status')).toMatch(/^(building|ready)$/);
    expect(await cell(published.body.id, 'current_version')).toBe(p.current_version_id);
    expect(await cell(published.body.id, 'versions')).toBe(`v1 ${v.body.id}`);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('a page load logs no error: /favicon.ico is an icon', async () => {
    const ico = await fetch(`${h.baseUrl}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await ico.arrayBuffer());
    // An ICO header (reserved 0, type 1 = icon, at least one image).
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(bytes[4]! + bytes[5]! * 256).toBeGreaterThan(0);

    const { page, problems } = await open(1280);
    // The icon the page names is the one served, and it decodes as an image.
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBe('/favicon.ico');
    const width = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return img.naturalWidth;
    }, href!);
    expect(width).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('at 1280 px Start session and Release share a row, even with long avatar and tool names', async () => {
    // A second workspace with a long name and svc.image on: the Tools list's longest option.
    const ws = await h.api('/api/v1/workspaces', {
      key: h.emu.keys.dashboardKey,
      body: { name: 'Lisbon walking tours kiosk, front desk' },
    });
    expect(ws.status).toBe(201);
    const on = await h.api(`/api/v1/workspaces/${ws.body.id}/builtin-servers/svc.image`, {
      method: 'PUT',
      key: h.emu.keys.dashboardKey,
      body: { enabled: true },
    });
    expect(on.status).toBe(200);
    // A custom avatar there, not published yet: the Avatar list's longest option.
    const a = await h.api(`/api/v1/workspaces/${ws.body.id}/avatars`, {
      key: h.emu.keys.dashboardKey,
      body: { name: 'Casey the walking-tour guide' },
    });
    expect(a.status).toBe(201);
    for (const width of [1280, 1024]) {
      const { page, problems } = await open(width);
      await page.waitForSelector(`#tool-server option[value="${ws.body.id}|svc.image"]`, {
        state: 'attached',
      });
      await page.waitForSelector(`#avatar option[value="avatar:${a.body.id}"]`, {
        state: 'attached',
      });
      const start = (await page.getByRole('button', { name: 'Start session' }).boundingBox())!;
      const release = (await page.getByRole('button', { name: 'Release' }).boundingBox())!;
      const tools = (await page.getByLabel('Tools').boundingBox())!;
      // One row: the Tools list, then Start session, then Release (no row of its own).
      const centre = (b: { y: number; height: number }) => b.y + b.height / 2;
      expect(centre(release), `at ${width} px`).toBe(centre(start));
      expect(centre(release), `at ${width} px`).toBeGreaterThan(tools.y);
      expect(centre(release), `at ${width} px`).toBeLessThan(tools.y + tools.height);
      expect(start.x).toBeGreaterThan(tools.x + tools.width);
      expect(release.x).toBeGreaterThan(start.x + start.width);
      // Nothing runs off the page sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      expect(problems).toEqual([]);
      await page.close();
    }
  }, 60_000);

  it('at 390 px (a phone) every control of the Talk form fits the width', async () => {
    const { page, problems } = await open(390, 844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    for (const name of ['Start session', 'Release']) {
      const b = (await page.getByRole('button', { name }).boundingBox())!;
      expect(b.x + b.width, name).toBeLessThanOrEqual(390);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
