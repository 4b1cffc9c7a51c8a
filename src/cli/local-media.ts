/**
 * Local checks of the files `avatars create-custom` uploads (issue 7 item 9), before
 * anything is created: the type by content (magic bytes, as the service checks), that an
 * image is whole (a truncated PNG, JPEG or WebP is refused: the service decodes faces and
 * would refuse it after the avatar exists), and the voice duration measured from the file
 * (spec 8: 5 to 30 s). The same libraries the service uses for type and duration.
 */
import { basename } from 'node:path';
import { Limits } from '../contract/limits.js';
import { CliError, ExitCode } from './exit-codes.js';

const FACE = ['image/jpeg', 'image/png', 'image/webp'];

/** Whether the image's own structure says it is complete (no decoder needed). */
function imageComplete(mime: string, b: Buffer): boolean {
  if (mime === 'image/png') {
    // Walk the chunks: each has a length, and the last is IEND.
    let at = 8;
    while (at + 12 <= b.length) {
      const len = b.readUInt32BE(at);
      const type = b.toString('latin1', at + 4, at + 8);
      at += 12 + len;
      if (type === 'IEND') return at <= b.length;
    }
    return false;
  }
  if (mime === 'image/jpeg') {
    // Ends with EOI (FF D9), trailing padding aside.
    let end = b.length;
    while (end > 2 && b[end - 1] === 0) end--;
    return end >= 4 && b[end - 2] === 0xff && b[end - 1] === 0xd9;
  }
  if (mime === 'image/webp') return b.length >= 12 && b.readUInt32LE(4) + 8 <= b.length;
  return true;
}

export async function checkFaceFile(file: string, bytes: Buffer): Promise<void> {
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(bytes);
  const name = basename(file);
  if (!found || !FACE.includes(found.mime)) {
    throw new CliError(
      `--face ${name}: not a jpeg, png or webp image (its bytes read as ${found?.mime ?? 'unknown'})`,
      ExitCode.usage,
    );
  }
  if (!imageComplete(found.mime, bytes)) {
    throw new CliError(
      `--face ${name}: the ${found.ext} image is truncated or corrupt (it does not end where its format says)`,
      ExitCode.usage,
    );
  }
}

/** Returns the duration in seconds. */
export async function checkVoiceFile(file: string, bytes: Buffer): Promise<number> {
  const { fileTypeFromBuffer } = await import('file-type');
  const { parseBuffer } = await import('music-metadata');
  const name = basename(file);
  const found = await fileTypeFromBuffer(bytes);
  const mime =
    found?.mime === 'audio/mpeg'
      ? 'audio/mpeg'
      : found && /^audio\/(x-)?wav(e)?$|vnd\.wave/.test(found.mime)
        ? 'audio/wav'
        : null;
  if (!mime)
    throw new CliError(
      `--voice ${name}: not mp3 or wav audio (its bytes read as ${found?.mime ?? 'unknown'})`,
      ExitCode.usage,
    );
  let seconds: number | undefined;
  try {
    seconds = (
      await parseBuffer(
        bytes,
        { mimeType: mime, size: bytes.length },
        { duration: true, skipCovers: true },
      )
    ).format.duration;
  } catch {
    seconds = undefined;
  }
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
    throw new CliError(
      `--voice ${name}: cannot measure the audio length (truncated or corrupt)`,
      ExitCode.usage,
    );
  }
  const min = Limits.voiceSampleMinSeconds;
  const max = Limits.voiceSampleMaxSeconds;
  if (seconds < min || seconds > max) {
    throw new CliError(
      `--voice ${name}: the sample is ${Math.round(seconds * 10) / 10} s; it must be ${min} to ${max} s`,
      ExitCode.usage,
    );
  }
  return seconds;
}
