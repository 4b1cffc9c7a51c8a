/**
 * The warm acoustic model (src/models/recognizer/warm-model.ts; docs/turns.md "Warm decoder"):
 * one directory per user and model, made once and reused by every build and every process,
 * so no run leaves an `avatar-hmm-*` directory behind in the temp dir. TMPDIR points at a
 * private directory here, so other processes on the machine cannot disturb the counts.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const realTmp = tmpdir();
let tmp = '';
let hmm = '';
const savedTmpdir = process.env.TMPDIR;

/** warm-model.ts as a fresh process would load it (its per-process memory empty). */
async function freshModule() {
  vi.resetModules();
  return import('../src/models/recognizer/warm-model.js');
}
const warmDirs = () => readdirSync(tmp).filter((f) => f.startsWith('avatar-hmm-'));

beforeAll(() => {
  tmp = mkdtempSync(join(realTmp, 'avatar-test-warm-'));
  hmm = join(tmp, 'model', 'en-us');
  mkdirSync(hmm, { recursive: true });
  writeFileSync(join(hmm, 'feat.params'), '-lowerf 130\n-cmninit 41.00,-5.29\n-nfilt 25\n');
  writeFileSync(join(hmm, 'mdef'), 'mdef');
  process.env.TMPDIR = tmp;
});

afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(tmp, { recursive: true, force: true });
});

describe('the warm acoustic model', () => {
  it('is one private directory per user and model, reused by every build and every process', async () => {
    const first = await freshModule();
    const dir = first.warmModel(hmm);
    expect(dir).not.toBe(hmm);
    expect(dir.startsWith(join(tmp, 'avatar-hmm-'))).toBe(true);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, 'feat.params'), 'utf8')).toContain(
      `-cmninit ${first.SPEECH_CMN.join(',')}`,
    );
    expect(readFileSync(join(dir, 'mdef'), 'utf8')).toBe('mdef');
    expect(first.warmModel(hmm)).toBe(dir);
    // Another process (a fresh module) finds the same directory and makes none.
    const second = await freshModule();
    expect(second.warmModel(hmm)).toBe(dir);
    const third = await freshModule();
    expect(third.warmModel(hmm)).toBe(dir);
    expect(warmDirs()).toHaveLength(1);
  });

  it('does not use a directory at that name that is a symlink (someone else could have put it there)', async () => {
    const other = join(tmp, 'model2', 'en-us');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'feat.params'), '-lowerf 130\n');
    const m = await freshModule();
    const target = mkdtempSync(join(tmp, 'elsewhere-'));
    symlinkSync(target, m.warmModelDir(other));
    const dir = m.warmModel(other);
    expect(dir).not.toBe(m.warmModelDir(other));
    expect(dir).not.toBe(other);
    expect(readFileSync(join(dir, 'feat.params'), 'utf8')).toContain('-cmninit');
    expect(readdirSync(target)).toEqual([]); // nothing written through the link
  });
});
