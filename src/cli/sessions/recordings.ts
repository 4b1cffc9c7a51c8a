/**
 * `avatar sessions list`: the sessions an emulator knows (spec 4.5 has no list route; the
 * emulator's operator route `GET /_emulator/sessions` has one). A service without that route
 * gets a plain "no session list here", not a 404.
 *
 * `avatar sessions recordings <sessionId> [-o DIR]`: the captures of a `recording: true`
 * session (spec 4.5 `recording`: raw audio/video, 30-day retention). The emulator serves
 * them on its operator routes (docs/edge.md "Recording"); this lists them and saves them,
 * so an operator needs no curl. Not a /api/v1 route: the cloud service has no such route.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fillPath } from '../../contract/operation.js';
import type { CliContext } from '../context.js';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';

interface RecordingList {
  session_id: string;
  expires_at: number | null;
  data: { name: string; content_type: string; bytes: number; url: string }[];
}

const EXAMPLES = `
Examples:
  $ avatar sessions live --persona ava --recording --say "Hello" --turns 1
  $ avatar sessions recordings <sessionId>              # names and sizes
  $ avatar sessions recordings <sessionId> -o captures  # saved in ./captures`;

export const recordingCommands = [
  defineCommand({
    name: 'list',
    summary:
      'sessions the local emulator knows, newest first: live ones, or --all (emulator operator route; the service has no list)',
    options: {
      all: { flags: '--all', description: 'ended and erased sessions too' },
      limit: { flags: '--limit <n>', description: 'at most this many (1-1000)', default: '50' },
    },
    async run({ options: opts, cli }) {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new CliError(`--limit ${opts.limit}: a whole number from 1 to 1000`, ExitCode.usage);
      const client = cli.client();
      try {
        const res = await client.raw(
          'GET',
          `/_emulator/sessions?limit=${limit}${opts.all ? '&all=true' : ''}`,
        );
        const body = res.body as { data?: unknown } | undefined;
        if (
          res.status === 404 ||
          res.status === 405 ||
          (res.status < 400 && !Array.isArray(body?.data))
        ) {
          throw new CliError(
            `${cli.connection().baseUrl} has no session list: spec 4.5 defines none; \`avatar sessions list\` reads the local emulator's operator route (GET /_emulator/sessions)`,
            ExitCode.usage,
          );
        }
        if (res.status >= 400) {
          const { ApiResponseError } = await import('../../client/client.js');
          throw new ApiResponseError(res.status, res.body, res.headers);
        }
        cli.print(body);
      } finally {
        await client.close();
      }
    },
  }),
  defineCommand({
    name: 'recordings',
    summary:
      'captures of a recording: true session (mic.wav, video.mp4; emulator operator route, kept 30 days): list, or save with -o',
    args: { sessionId: { usage: '<sessionId>', description: 'the session id' } },
    options: {
      out: {
        flags: '-o, --out <dir>',
        description: 'save every capture into this folder (created when missing)',
      },
    },
    configure: (cmd) => cmd.addHelpText('after', EXAMPLES),
    async run({ args: { sessionId }, options: opts, cli }) {
      const dir = opts.out === undefined ? undefined : resolve(cli.io.cwd, opts.out);
      if (dir !== undefined && exists(dir) && !isDir(dir))
        throw new CliError(`-o ${dir}: not a folder`, ExitCode.usage);
      const client = cli.client();
      // Loaded here, not at the top: help must load no schema (test/cli-help-fast.test.ts).
      const { recording, recordings } = await import('../../contract/operations/operator.js');
      const list = await get<RecordingList>(client, fillPath(recordings.path, { id: sessionId }));
      if (dir === undefined) {
        if (cli.globals().json) return cli.print(list);
        cli.io.stdout.write(describe(list) + '\n');
        return;
      }
      // Created once the service has answered, so a refused read leaves nothing behind.
      mkdirSync(dir, { recursive: true });
      const saved: { name: string; path: string; bytes: number }[] = [];
      for (const f of list.data) {
        const bytes = await get<Buffer>(
          client,
          fillPath(recording.path, { id: sessionId, name: f.name }),
        );
        const path = join(dir, f.name);
        writeFileSync(path, bytes);
        saved.push({ name: f.name, path, bytes: bytes.length });
      }
      if (cli.globals().json)
        return cli.print({ session_id: list.session_id, expires_at: list.expires_at, saved });
      for (const s of saved) cli.io.stdout.write(`saved ${s.path} (${s.bytes} bytes)\n`);
    },
  }),
];

async function get<T>(client: ReturnType<CliContext['client']>, path: string): Promise<T> {
  const res = await client.raw('GET', path);
  if (res.status >= 400) {
    const { ApiResponseError } = await import('../../client/client.js');
    throw new ApiResponseError(res.status, res.body, res.headers);
  }
  return res.body as T;
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function describe(list: RecordingList): string {
  const w = Math.max(4, ...list.data.map((f) => f.name.length));
  const t = Math.max(4, ...list.data.map((f) => f.content_type.length));
  const rows = list.data.map(
    (f) => `${f.name.padEnd(w)}  ${f.content_type.padEnd(t)}  ${f.bytes} bytes`,
  );
  // A session still running: its captures are final (and listed) only once it has ended.
  if (list.expires_at === null)
    return [
      ...rows,
      'the session has not ended: its captures are listed once it has (docs/edge.md "Recording")',
    ].join('\n');
  const until = new Date(list.expires_at * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  return [...rows, `kept until ${until} (30 days after the session ended)`].join('\n');
}
