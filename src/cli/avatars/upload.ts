/**
 * Uploads with a progress bar (faces, voice samples). The bar is drawn on stderr only when
 * it is a terminal; otherwise one line per upload. Silent with --json.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import type { AnyOperation } from '../../contract/operation.js';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

/**
 * Read a local file for upload; the Content-Type comes from its extension unless given.
 * `flag` names the option that gave the file; `canOverride` says the command has
 * `--content-type` (only then does the hint mention it).
 */
export function readUpload(
  cli: CliContext,
  file: string,
  kind: 'image' | 'audio',
  contentType?: string,
  o: { flag?: string; canOverride?: boolean } = {},
) {
  const path = resolve(cli.io.cwd, file);
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    bytes = readFileSync(path);
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
  }
  const type = contentType ?? TYPES[extname(path).toLowerCase()];
  if (!type || !type.startsWith(kind)) {
    const allowed = Object.entries(TYPES)
      .filter(([, t]) => t.startsWith(kind))
      .map(([e]) => e)
      .join(', ');
    const hint = o.canOverride === false ? '' : ', or pass --content-type';
    throw new CliError(
      `${o.flag ? `${o.flag} ` : ''}${basename(path)}: expected ${kind === 'image' ? 'an image' : 'an audio'} file (${allowed})${hint}`,
      ExitCode.usage,
    );
  }
  return { bytes, type, name: basename(path) };
}

const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);

/** A progress callback drawing `name [#####.....] 45% 4.5/10.0 MB` on stderr. */
export function progressBar(cli: CliContext, name: string): (sent: number, total: number) => void {
  const tty = cli.io.stderr.isTTY === true;
  let last = -1;
  return (sent, total) => {
    if (cli.globals().json) return;
    const pct = total === 0 ? 100 : Math.floor((sent / total) * 100);
    if (pct === last) return;
    last = pct;
    if (tty) {
      const width = 24;
      const filled = Math.round((pct / 100) * width);
      cli.io.stderr.write(
        `\r${name} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% ${mb(sent)}/${mb(total)} MB`,
      );
      if (sent >= total) cli.io.stderr.write('\n');
    } else if (sent >= total) {
      cli.io.stderr.write(`${name}: uploaded ${mb(total)} MB\n`);
    }
  };
}

/** PUT a file to an upload operation with a progress bar; throws ApiResponseError on 4xx/5xx. */
export async function uploadFile(
  cli: CliContext,
  op: AnyOperation,
  params: Record<string, string>,
  upload: { bytes: Buffer; type: string; name: string },
  headers: Record<string, string> = {},
) {
  const res = await cli.client().call(op, {
    params,
    raw: {
      bytes: upload.bytes,
      contentType: upload.type,
      onProgress: progressBar(cli, upload.name),
    },
    headers,
  });
  return res.body as Record<string, unknown>;
}
