/**
 * `--image` / `--voice` / `--end-frame` arguments of `avatar speak`: an http(s) URL is sent
 * as is; a local file is read and sent as a data: URI (spec 4.10 takes both), its type
 * from its content (file-type), else from its extension.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';

const BY_EXT: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
};

export interface MediaArg {
  /** What goes in the body: the URL, or a data: URI. */
  ref: string;
  /** Bytes read from a local file (0 for a URL). */
  bytes: number;
  name: string;
}

export async function mediaArg(
  cli: CliContext,
  flag: string,
  value: string,
  kind: 'image' | 'audio',
): Promise<MediaArg> {
  if (/^https?:\/\//i.test(value)) return { ref: value, bytes: 0, name: value };
  if (value.startsWith('data:'))
    return { ref: value, bytes: value.length, name: `${flag} data URI` };
  const path = resolve(cli.io.cwd, value);
  let data: Buffer;
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    data = readFileSync(path);
  } catch (e) {
    throw new CliError(`${flag}: cannot read ${value}: ${(e as Error).message}`, ExitCode.usage);
  }
  const sniffed = (await fileTypeFromBuffer(data))?.mime;
  // file-type names WAV audio/wav, m4a audio/x-m4a, ogg audio/ogg; anything of the right kind goes.
  const type = sniffed?.startsWith(`${kind}/`) ? sniffed : BY_EXT[extname(path).toLowerCase()];
  if (!type || !type.startsWith(`${kind}/`)) {
    const allowed = Object.entries(BY_EXT)
      .filter(([, t]) => t.startsWith(kind))
      .map(([e]) => e)
      .join(', ');
    throw new CliError(
      `${flag}: ${basename(path)} is not ${kind === 'image' ? 'an image' : 'audio'} (${allowed}), or pass an http(s) URL`,
      ExitCode.usage,
    );
  }
  return {
    ref: `data:${type};base64,${data.toString('base64')}`,
    bytes: data.length,
    name: basename(path),
  };
}
