import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Recorder } from '../src/edge/session/recorder.js';

/**
 * A full-suite run on a loaded machine saved a mic.wav of 6444 bytes that the recordings
 * list later gave as 9644: the recorder's writes were still queued when the session's end
 * was reported (its close was fire-and-forget), so a user who downloaded the captures right
 * after the end got a partial file. Captures are final when the end is reported
 * (docs/edge.md "Recording"): the box's end listeners (which close the sockets and tell
 * the control plane) run after close() has returned, in the same tick, with no await.
 */
const root = mkdtempSync(join(tmpdir(), 'avatar-recorder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the box recorder', () => {
  it('once close() returns, mic.wav and video.mp4 are whole on disk; before, no file by those names is listed', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const rec = new Recorder(root, id);
    const frame = new Int16Array(320).map((_, i) => i - 160); // 20 ms at 16 kHz
    for (let i = 0; i < 15; i++) rec.micFrame(frame);
    rec.media(Buffer.from('init-segment'));
    rec.media(Buffer.from('fragment-1'));
    // While recording, the names the listing offers do not exist yet: it cannot name a partial file.
    expect(existsSync(join(rec.dir, 'mic.wav'))).toBe(false);
    expect(existsSync(join(rec.dir, 'video.mp4'))).toBe(false);

    rec.close();
    // Same tick: what the end's report (and a listing right after it) sees.
    expect(readdirSync(rec.dir).sort()).toEqual(['mic.wav', 'video.mp4']);
    const wav = readFileSync(join(rec.dir, 'mic.wav'));
    expect(wav.length).toBe(44 + 15 * 640);
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + 15 * 640);
    expect(wav.readUInt32LE(40)).toBe(15 * 640);
    expect(wav.readInt16LE(44)).toBe(-160);
    expect(readFileSync(join(rec.dir, 'video.mp4')).toString()).toBe('init-segmentfragment-1');

    // Frames after the end are not recorded; a second close changes nothing.
    rec.micFrame(frame);
    rec.close();
    expect(readFileSync(join(rec.dir, 'mic.wav')).length).toBe(44 + 15 * 640);
  });
});
