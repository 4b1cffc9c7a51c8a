/**
 * Optional system pieces (issue 9): a recorder for `--mic`, an audio output for replies.
 * Installing `avatar` never needs them; asking for a missing one says exactly what to
 * install on this OS, and the file and text modes keep working without them.
 */
import { createRequire } from 'node:module';

export { which } from '../../models/which.js';
import { which } from '../../models/which.js';

/** Whether an npm package can be loaded from here (optional dependencies may be absent or unbuilt). */
export function hasPackage(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

export type Piece = 'recorder' | 'player';

/** Exactly what to install on this OS for a missing piece. */
export function installHint(piece: Piece, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') {
    return piece === 'recorder'
      ? 'install SoX: brew install sox'
      : 'install SoX: brew install sox (or: npm i speaker)';
  }
  if (platform === 'win32') {
    return piece === 'recorder'
      ? 'install SoX (https://sourceforge.net/projects/sox/) and put sox.exe on PATH'
      : 'install SoX and put play.exe on PATH, or ffplay from an ffmpeg build';
  }
  // Debian and Ubuntu (apt); other Linux distributions name the same packages alike.
  return piece === 'recorder'
    ? 'install a recorder: sudo apt-get install sox   (or: sudo apt-get install alsa-utils for arecord)'
    : 'install a player: sudo apt-get install sox   (or alsa-utils for aplay; or sudo apt-get install libasound2-dev && npm i speaker)';
}

/** A recorder node-record-lpcm16 can drive, if the machine has one (sox/rec, then arecord). */
export function findRecorder(
  env = process.env,
): { recorder: 'sox' | 'rec' | 'arecord'; path: string } | undefined {
  for (const r of ['sox', 'rec', 'arecord'] as const) {
    const path = which(r, env);
    if (path) return { recorder: r, path };
  }
  return undefined;
}
