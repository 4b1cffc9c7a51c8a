/**
 * Debian chromium for browser tests (playwright-core, never a browser download), with a
 * fake microphone that plays a WAV the test synthesizes with the product's own voice
 * (flite: pocketsphinx recognises it; MEDIA-NOTES). Chromium loops the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import wavefile from 'wavefile';
import { defaultVoice } from '../../src/models/voice/index.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];
/** ava's mouth box at 352x480 (src/media/face.ts). */
export const MOUTH = [146, 246, 60, 44] as const;

/** `leadMs` of silence, `text` spoken by the product's voice, then `tailMs` of silence: a 16 kHz WAV. */
export async function speechWav(text: string, leadMs: number, tailMs: number): Promise<Buffer> {
  const speech = await defaultVoice().synthesize(text);
  const lead = (leadMs * speech.sampleRate) / 1000;
  const all = new Int16Array(lead + speech.samples.length + (tailMs * speech.sampleRate) / 1000);
  all.set(speech.samples, lead);
  const w = new wavefile.WaveFile();
  w.fromScratch(1, speech.sampleRate, '16', all);
  return Buffer.from(w.toBuffer());
}

/** Chromium whose microphone plays `wav` (looped), media allowed without a prompt. */
export async function launchWithMic(
  wav: Buffer,
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'avatar-mic-'));
  const file = join(dir, 'mic.wav');
  writeFileSync(file, wav);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...CHROMIUM_FLAGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${file}`,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface VideoProbe {
  t: number;
  /** Mean brightness of the mouth box. */
  mouth: number;
}

/** What a viewer of `selector` sees now: its time and the mouth's brightness. */
export function probeVideo(page: Page, selector = 'video'): Promise<VideoProbe> {
  return page.evaluate(
    ([sel, x, y, w, h]) => {
      const v = document.querySelector(sel as string) as HTMLVideoElement;
      const c = document.createElement('canvas');
      c.width = v.videoWidth || 352;
      c.height = v.videoHeight || 480;
      const g = c.getContext('2d', { willReadFrequently: true })!;
      g.drawImage(v, 0, 0, c.width, c.height);
      const d = g.getImageData(x as number, y as number, w as number, h as number).data;
      let sum = 0;
      for (let i = 0; i < d.length; i += 4) sum += d[i]! + d[i + 1]! + d[i + 2]!;
      return { t: v.currentTime, mouth: sum / (d.length / 4) / 3 };
    },
    [selector, ...MOUTH] as const,
  );
}

/**
 * Start probing in the page itself every 100 ms (independent of the test's round trips);
 * `stop()` returns the probes since.
 */
export async function startProbing(
  page: Page,
  selector = 'video',
): Promise<{ stop(): Promise<VideoProbe[]> }> {
  await page.evaluate(
    ([sel, x, y, w, h]) => {
      const v = document.querySelector(sel as string) as HTMLVideoElement;
      const c = document.createElement('canvas');
      const g = c.getContext('2d', { willReadFrequently: true })!;
      const probes: { t: number; mouth: number }[] = [];
      const timer = setInterval(() => {
        c.width = v.videoWidth || 352;
        c.height = v.videoHeight || 480;
        g.drawImage(v, 0, 0, c.width, c.height);
        const d = g.getImageData(x as number, y as number, w as number, h as number).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += d[i]! + d[i + 1]! + d[i + 2]!;
        probes.push({ t: v.currentTime, mouth: sum / (d.length / 4) / 3 });
      }, 100);
      (window as unknown as { stopProbing(): unknown }).stopProbing = () => (
        clearInterval(timer), probes
      );
    },
    [selector, ...MOUTH] as const,
  );
  return {
    stop: () =>
      page.evaluate(() => (window as unknown as { stopProbing(): VideoProbe[] }).stopProbing()),
  };
}

/** Probes every 100 ms for `ms`, as a viewer watching. */
export async function watch(page: Page, ms: number, selector?: string): Promise<VideoProbe[]> {
  const out: VideoProbe[] = [];
  for (let i = 0; i < ms / 100; i++) {
    out.push(await probeVideo(page, selector));
    await page.waitForTimeout(100);
  }
  return out;
}

export const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
