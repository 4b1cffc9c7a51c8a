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
 * Made once per process, removed when it exits.
 */
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
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

/** The warm copy (links) of the acoustic model in `hmmDir`; `hmmDir` itself when it cannot be made. */
export function warmModel(hmmDir: string): string {
  const hit = made.get(hmmDir);
  if (hit) return hit;
  let dir: string | null = null;
  try {
    const params = readFileSync(join(hmmDir, 'feat.params'), 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('-cmninit'));
    dir = mkdtempSync(join(tmpdir(), 'avatar-hmm-'));
    for (const f of readdirSync(hmmDir))
      if (f !== 'feat.params') symlinkSync(join(hmmDir, f), join(dir, f));
    writeFileSync(
      join(dir, 'feat.params'),
      [...params.filter(Boolean), `-cmninit ${SPEECH_CMN.join(',')}`, ''].join('\n'),
    );
    const d = dir;
    process.once('exit', () => rmSync(d, { recursive: true, force: true }));
    made.set(hmmDir, dir);
    return dir;
  } catch {
    if (dir) rmSync(dir, { recursive: true, force: true });
    return hmmDir; // an unreadable model: pocketsphinx decodes cold, as before
  }
}
