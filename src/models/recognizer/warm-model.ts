/**
 * The warm decoder (issue 30 item 2): pocketsphinx starts each process with the cepstral mean
 * of the model's feat.params (`-cmninit 41.00,-5.29,...`, far from speech through our audio
 * path), so the first utterance of a session was heard through a wrong mean ("how do i to two
 * to dark are" for "how do i send an invitation to a colleague"; the same audio heard later
 * was right). The model's feat.params wins over a `-cmninit` on the command line (Debian's
 * 5prealpha), so the warm model is a private directory of links to the model's files with a
 * feat.params whose `-cmninit` is `SPEECH_CMN`: the mean pocketsphinx had reached at the end
 * of a session of our questions, averaged over the flite slt and espeak-ng voices (measured
 * from its `cmn_live.c ... Update to` log lines; docs/turns.md "Warm decoder").
 * One directory per user and model (`avatar-hmm-<uid>-<hash of the model and SPEECH_CMN>` in
 * the temp dir, 0700), made once and reused by every process after, so no run leaves one
 * behind (vitest forks and killed processes never run an 'exit' handler). A directory at that
 * name that is not ours (a symlink, another owner, open to others) is never used: the process
 * then makes a private one of its own, removed when it exits, as before.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SPEECH_CMN = [
  53.15, 2.49, 4.6, 25.9, -6.83, -0.73, 0.41, -8.98, -0.13, -5.09, 8.26, -0.99, 1.67,
] as const;

const made = new Map<string, string>();

/** The feat.params of the warm model: the model's own, its `-cmninit` replaced by SPEECH_CMN. */
function warmParams(hmmDir: string): string {
  const params = readFileSync(join(hmmDir, 'feat.params'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('-cmninit'));
  return [...params, `-cmninit ${SPEECH_CMN.join(',')}`, ''].join('\n');
}

/**
 * The shared warm directory of the model in `hmmDir` for this user: its name changes with the
 * model's path, its files and feat.params, and SPEECH_CMN, so a changed model gets a new one.
 */
export function warmModelDir(hmmDir: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([hmmDir, readdirSync(hmmDir).sort(), warmParams(hmmDir)]))
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), `avatar-hmm-${process.getuid?.() ?? 'user'}-${hash}`);
}

/** Whether `dir` is a finished warm model this user alone can write: a real directory, ours, 0700. */
function ours(dir: string): boolean {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st || !st.isDirectory()) return false; // a symlink is not a directory to lstat
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return false;
  return (st.mode & 0o077) === 0 && existsSync(join(dir, 'feat.params'));
}

/** A new private directory of links to the model's files and the warm feat.params. */
function build(hmmDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'avatar-hmm-')); // 0700
  try {
    for (const f of readdirSync(hmmDir))
      if (f !== 'feat.params') symlinkSync(join(hmmDir, f), join(dir, f));
    writeFileSync(join(dir, 'feat.params'), warmParams(hmmDir));
    chmodSync(dir, 0o700);
    return dir;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The warm copy (links) of the acoustic model in `hmmDir`; `hmmDir` itself when it cannot be made. */
export function warmModel(hmmDir: string): string {
  const hit = made.get(hmmDir);
  if (hit) return hit;
  try {
    const shared = warmModelDir(hmmDir);
    let dir = shared;
    if (!ours(shared)) {
      // Built aside and renamed into place whole, so a process starting at the same time
      // never sees half a model; the loser of that race uses the winner's.
      const built = build(hmmDir);
      try {
        if (lstatSync(shared, { throwIfNoEntry: false })) throw new Error('taken');
        renameSync(built, shared);
      } catch {
        if (ours(shared)) rmSync(built, { recursive: true, force: true });
        else {
          dir = built; // the name is not ours: a private one for this process, as before
          process.once('exit', () => rmSync(built, { recursive: true, force: true }));
        }
      }
    }
    made.set(hmmDir, dir);
    return dir;
  } catch {
    return hmmDir; // an unreadable model: pocketsphinx decodes cold, as before
  }
}
